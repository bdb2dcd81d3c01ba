// Preloaded into every product process a test starts (NODE_OPTIONS=--import <this file>), and into the
// test workers themselves: traffic stays on this machine whatever a test, a fuzzer or a bug asks for.
// A connection to an address outside 127.0.0.0/8 and ::1 fails before a packet leaves, and a name other
// than localhost is never asked of the system's resolver (fixtureHostsPreload answers *.fixture.test
// before it gets here). A process inside a network namespace of the tests' own (a local cluster's:
// stack/src/cluster, no route out) may also reach that namespace's addresses, 198.18.0.0/15.
// Tests only; the product never loads it.
import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

// A test worker runs this once per test file; the built-ins it patches live as long as the process.
const INSTALLED = Symbol.for('leadforge.loopbackEgressGuard');
if (!globalThis[INSTALLED]) {
  globalThis[INSTALLED] = true;
  installGuard();
}

function installGuard() {
  const inOwnNamespace = (() => {
    try {
      return fs.readlinkSync('/proc/self/ns/net') !== fs.readlinkSync('/proc/1/ns/net');
    } catch {
      return false;
    }
  })();

  const staysOnThisMachine = (address) => {
    const family = net.isIP(address);
    if (family === 4) return address.startsWith('127.') || (inOwnNamespace && /^198\.1[89]\./.test(address));
    if (family === 6) {
      const lower = address.toLowerCase();
      return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(lower);
    }
    return false;
  };
  const isLoopbackName = (hostname) => {
    const lower = String(hostname).toLowerCase().replace(/\.$/, '');
    return lower === 'localhost' || lower.endsWith('.localhost') || staysOnThisMachine(lower.replace(/^\[|\]$/g, ''));
  };
  const refusal = (syscall, target) => Object.assign(
    new Error(`${syscall} ${target}: refused by the tests' loopback-only egress guard`),
    { code: syscall === 'connect' ? 'ECONNREFUSED' : 'ENOTFOUND', syscall, hostname: target },
  );

  const originalLookup = dns.lookup;
  dns.lookup = function lookup(hostname, options, callback) {
    const done = typeof options === 'function' ? options : callback;
    if (net.isIP(hostname) || isLoopbackName(hostname)) return originalLookup.call(this, hostname, options, callback);
    process.nextTick(() => done(refusal('getaddrinfo', hostname)));
    return undefined;
  };
  const originalPromisesLookup = dns.promises.lookup;
  dns.promises.lookup = function lookup(hostname, options) {
    if (net.isIP(hostname) || isLoopbackName(hostname)) return originalPromisesLookup.call(this, hostname, options);
    return Promise.reject(refusal('getaddrinfo', hostname));
  };

  // A resolver asks only name servers on loopback (a test's own DNS server); the system's are elsewhere.
  const RESOLVE_METHODS = ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveNs', 'resolveTxt', 'resolveSrv', 'resolvePtr', 'resolveNaptr', 'resolveSoa', 'resolveCaa', 'reverse'];
  const serverAddress = (server) => server.replace(/^\[?([^\]]+?)\]?(:\d+)?$/, '$1');
  const onLoopbackServers = (resolver) => resolver.getServers().every((server) => staysOnThisMachine(serverAddress(server)));
  for (const Resolver of [dns.Resolver, dns.promises.Resolver]) {
    for (const method of RESOLVE_METHODS) {
      const original = Resolver.prototype[method];
      if (typeof original !== 'function') continue;
      Resolver.prototype[method] = function guardedResolve(...args) {
        if (onLoopbackServers(this)) return original.apply(this, args);
        const error = refusal('query', String(args[0]));
        if (Resolver === dns.promises.Resolver) return Promise.reject(error);
        const callback = args.findLast((arg) => typeof arg === 'function');
        process.nextTick(() => callback?.(error));
        return undefined;
      };
    }
  }
  const systemServersOnLoopback = () => dns.getServers().every((server) => staysOnThisMachine(serverAddress(server)));
  for (const api of [dns, dns.promises]) {
    for (const method of RESOLVE_METHODS) {
      const original = api[method];
      if (typeof original !== 'function') continue;
      api[method] = function guardedResolve(...args) {
        if (systemServersOnLoopback()) return original.apply(this, args);
        const error = refusal('query', String(args[0]));
        if (api === dns.promises) return Promise.reject(error);
        const callback = args.findLast((arg) => typeof arg === 'function');
        process.nextTick(() => callback?.(error));
        return undefined;
      };
    }
  }

  // Connections name an address directly or after a lookup; both end in Socket#connect's options.
  const originalConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
    const host = options.path === undefined ? options.host : undefined;
    if (typeof host === 'string' && net.isIP(host) && !staysOnThisMachine(host)) {
      const error = refusal('connect', host);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return originalConnect.apply(this, args);
  };

  syncBuiltinESMExports();
}
