// The fixture web in a child process of its own, so a benchmark counts only the product's CPU.
//   startFixtureWebChild(options)  ->  { port, stop() }
// Run as a script (by startFixtureWebChild), it starts the web with the options in FIXTURE_WEB_OPTIONS
// and prints its port as one JSON line.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { startFixtureWeb, type FixtureWebOptions } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';

const SELF = new URL(import.meta.url).pathname;

export async function startFixtureWebChild(options: FixtureWebOptions): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
    env: { ...process.env, FIXTURE_WEB_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixture web exited with ${code}`)));
  });
  return { port: JSON.parse(line).port, stop: () => child.kill('SIGTERM') };
}

if (process.argv[1] === SELF && process.env.FIXTURE_WEB_OPTIONS) {
  const web = await startFixtureWeb(JSON.parse(process.env.FIXTURE_WEB_OPTIONS));
  console.log(JSON.stringify({ port: web.port }));
  process.on('SIGTERM', () => void web.close().then(() => process.exit(0)));
}
