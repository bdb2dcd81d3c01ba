import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@leadforge/stack';
import { isolatedEnv, startProductProcess, type ProductProcess } from './productProcess.ts';

export interface LocalStackProcess extends ProductProcess {
  dataDir: string;
}

/** Starts the product exactly as `npm start` does, on a free port with its own data folder. */
export async function startLocalStack(options: { dataDir?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<LocalStackProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-'));
  const port = await freePort();
  const env = isolatedEnv(port, dataDir, 'warn', options.env);
  const product = await startProductProcess('scripts/start.mjs', env, /Leadforge is running at (http:\/\/\S+)/, options.timeoutMs ?? 240_000);
  return { ...product, dataDir };
}
