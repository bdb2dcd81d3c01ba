import { freePort } from '../../stack/src/freePort.ts';
import { freshDataDir } from './dataTemplate.ts';
import { isolatedEnv, startProductProcess, type ProductProcess } from './productProcess.ts';

export interface LocalStackProcess extends ProductProcess {
  dataDir: string;
}

/** Starts the product exactly as `npm start` does, on a free port with its own data folder (a copy of the run's template, test/support/dataTemplate.ts, unless given). */
export async function startLocalStack(options: { dataDir?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<LocalStackProcess> {
  const dataDir = options.dataDir ?? await freshDataDir();
  const port = await freePort();
  const env = isolatedEnv(port, dataDir, 'warn', options.env);
  const product = await startProductProcess('start', env, /Leadforge is running at (http:\/\/\S+)/, options.timeoutMs ?? 240_000);
  return { ...product, dataDir };
}
