import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

export interface ServerProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** Appended to by the server itself, so the log survives the parent. */
  logFile?: string;
  /** Receives each output line instead of logFile. */
  log?: (line: string) => void;
  /** Shuts the server down cleanly (SIGTERM when not given); also sent to it when this process dies without stopping it (even by SIGKILL). */
  stopSignal?: NodeJS.Signals;
}

/** A server program run directly (no shell), in its own process group so a terminal's Ctrl-C reaches only its parent. */
export interface ServerProcess {
  pid: number;
  /** Settles when the process ends, with how it ended. */
  exited: Promise<string>;
  running(): boolean;
  /** The last lines it wrote, for error messages. */
  logTail(): string;
  /** Sends the stop signal, then SIGKILL to its whole group when it is still running after timeoutMs. */
  stop(timeoutMs: number): Promise<void>;
}

const TAIL_LINES = 30;

export function spawnServer(command: string, args: string[], options: ServerProcessOptions): ServerProcess {
  const stopSignal = options.stopSignal ?? 'SIGTERM';
  const logStart = options.logFile && fs.existsSync(options.logFile) ? fs.statSync(options.logFile).size : 0;
  const logFd = options.log || !options.logFile ? undefined : fs.openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    uid: options.uid,
    gid: options.gid,
    detached: true,
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) fs.closeSync(logFd);

  const recent: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > TAIL_LINES) recent.shift();
      options.log?.(line);
    });
  }

  const stopWatching = child.pid ? watchParent(child.pid, stopSignal) : () => {};
  let done = false;
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => { done = true; resolve(`failed to start: ${err.message}`); });
    child.once('exit', (code, signal) => {
      done = true;
      stopWatching();
      resolve(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
  });

  return {
    pid: child.pid ?? -1,
    exited,
    running: () => !done,
    logTail() {
      if (!options.logFile || options.log) return recent.join('\n');
      const text = fs.existsSync(options.logFile) ? fs.readFileSync(options.logFile).subarray(logStart).toString('utf8') : '';
      return text.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
    },
    async stop(timeoutMs) {
      if (done) return;
      child.kill(stopSignal);
      const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, timeoutMs, 'timeout').unref());
      if ((await Promise.race([exited, timer])) !== 'timeout') return;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}

/**
 * A tiny shell, in its own process group like the server, that signals the server once this process
 * is gone, so a crashed or killed parent leaves no server behind holding its port and data folder.
 */
function watchParent(serverPid: number, signal: NodeJS.Signals): () => void {
  const watchdog = spawn('/bin/sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -"$3" "$2" 2>/dev/null', 'watchdog', String(process.pid), String(serverPid), signal.replace(/^SIG/, '')], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  watchdog.on('error', () => {});
  return () => {
    try {
      process.kill(-watchdog.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
}

/**
 * Polls `ready` until it resolves true; fails early, with the server's own words, when the server dies
 * first, and stops the server when `signal` aborts (a launcher stopped while it starts).
 */
export async function waitUntilReady(server: ServerProcess, what: string, ready: () => Promise<boolean>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (server.running()) {
    if (signal?.aborted) {
      await server.stop(5000);
      throw new Error(`${what}: start abandoned (${signal.reason instanceof Error ? signal.reason.message : 'aborted'})`);
    }
    if (await ready()) return;
    if (Date.now() > deadline) {
      await server.stop(5000);
      throw new Error(`${what} did not become ready within ${timeoutMs} ms:\n${server.logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} ${await server.exited}:\n${server.logTail()}`);
}
