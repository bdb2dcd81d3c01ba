import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PageJob, PageOutcome, PageTask } from './pageParseWorker.ts';

// Compiled for production (dist/*.js), the worker is JavaScript too and needs no loader.
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_FILE = new URL(COMPILED ? './pageParseWorker.js' : './pageParseWorker.ts', import.meta.url).href;

// A page's DOM takes a few times its size; a worker past this is stopped, not the process.
const WORKER_HEAP_MB = 256;

/**
 * Compiled (`npm start`, start:distributed, the images), workers inherit the process's flags. From
 * the TypeScript sources they run through tsx: a tsx loader the process was started with
 * (`--import tsx`) is inherited; without one (tsx registered in code, or vitest, which transforms
 * in-process) it is added.
 */
function workerExecArgv(): string[] {
  const argv = process.execArgv;
  if (COMPILED) return [...argv];
  const loadsTsx = argv.some((arg, i) => (/^--(import|loader|require)$/.test(arg) && /tsx/.test(argv[i + 1] ?? '')) || /^--(import|loader|require)=.*tsx/.test(arg));
  return loadsTsx ? [...argv] : [...argv, '--import', 'tsx'];
}

export type PoolAnswer = PageOutcome | { ok: false; timedOut: true };

/**
 * A fixed pool of parsing workers; a job past its time budget has its worker replaced. The workers
 * start with the first page, not with the service: each costs a thread loading tsx and the extraction
 * code (~2 s of CPU), which a process that never reads a page (most starts of `npm start`, every
 * service test) would spend for nothing. The wait for them is not counted in a page's time budget.
 */
export class ParsePool {
  private pool: Piscina<PageJob, PageOutcome> | undefined;

  constructor(readonly threads: number) {}

  private workers(): Piscina<PageJob, PageOutcome> {
    this.pool ??= new Piscina({
      filename: WORKER_FILE,
      minThreads: this.threads,
      maxThreads: this.threads,
      execArgv: workerExecArgv(),
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    return this.pool;
  }

  /** Runs a task within `timeoutMs` of its start in a worker; rejects when the worker failed (crash, out of memory). */
  async run(task: PageTask, timeoutMs: number, maxDepth: number): Promise<PoolAnswer> {
    const { port1, port2 } = new MessageChannel();
    const budget = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => { timer = setTimeout(() => budget.abort(), timeoutMs); });
    try {
      return await this.workers().run({ task, maxDepth, started: port2 }, { transferList: [port2], signal: budget.signal });
    } catch (error) {
      if (budget.signal.aborted) return { ok: false, timedOut: true };
      throw error;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  async destroy(): Promise<void> {
    await this.pool?.destroy();
  }
}

let shared: { pool: ParsePool; users: number } | undefined;

/**
 * The process's parsing pool: every scraper runtime of a process (a local stack, a test, the
 * benchmark's instances) shares one sized to the cores, not one each. The last release ends it.
 */
export function acquireParsePool(threads: number): { pool: ParsePool; release(): Promise<void> } {
  shared ??= { pool: new ParsePool(threads), users: 0 };
  const lease = shared;
  lease.users++;
  let released = false;
  return {
    pool: lease.pool,
    async release() {
      if (released) return;
      released = true;
      if (--lease.users > 0) return;
      if (shared === lease) shared = undefined;
      await lease.pool.destroy();
    },
  };
}
