import { GatewayVariables } from '@leadforge/gateway';
import { KitVariables, loadVariable } from '@leadforge/kit/config';
import { DEFAULT_WEB_DIST, startStack } from './startStack.ts';

const started = Date.now();
const port = loadVariable(KitVariables, 'PORT', process.env);
const starting = startStack({ port, webDist: loadVariable(GatewayVariables, 'WEB_DIST', process.env) ?? DEFAULT_WEB_DIST });

// Listening for Ctrl-C before the start ends: a signal at any moment stops the product gracefully
// (its embedded databases closed), never by the default handler's immediate exit.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n  ${signal}: stopping Leadforge...`);
  const timer = setTimeout(() => process.exit(1), 15_000);
  timer.unref();
  await starting.then((stack) => stack.stop(), () => undefined);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const stack = await starting.catch((err) => {
  if (err?.code === 'EADDRINUSE') console.error(`\n  Port ${port} is already in use. Stop what uses it, or start on another port: PORT=8081 npm start\n`);
  else console.error('\n  Leadforge failed to start:', err?.message ?? err, '\n');
  process.exit(1);
});
if (!stopping) {
  const names = stack.services.map((s) => s.name).join(', ');
  console.log(`\n  Leadforge is running at ${stack.url}  (services: ${names}; started in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`  Data: ${process.env.DATA_DIR ?? './.data'}   Stop: Ctrl-C\n`);
}
