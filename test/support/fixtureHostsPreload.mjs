// Preloaded into the processes of a product under test (NODE_OPTIONS=--import <this file>): the
// fixture web's host names (*.fixture.test) resolve to loopback, as a DNS record would make them, so a
// scraper in a process of its own (start:distributed) reaches them through the fixture web's proxy.
// Every other name resolves as before. Tests only; the product never loads it.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const isFixtureHost = (hostname) => typeof hostname === 'string' && hostname.toLowerCase().endsWith('.fixture.test');
const original = dns.promises.lookup;
dns.promises.lookup = function lookup(hostname, options) {
  if (!isFixtureHost(hostname)) return original.call(this, hostname, options);
  const answer = { address: '127.0.0.1', family: 4 };
  return Promise.resolve(typeof options === 'object' && options?.all ? [answer] : answer);
};
syncBuiltinESMExports();
