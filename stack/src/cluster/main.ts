// `npm run cluster:up | cluster:down | cluster:build | cluster:dev | cluster:kubectl -- <args>` (stack/src/cluster/localCluster.ts).
import { buildToolchain, clusterDev, clusterDown, clusterUp, kubectlCommand } from './localCluster.ts';

const [command, ...args] = process.argv.slice(2);
try {
  if (command === 'up') await clusterUp();
  else if (command === 'build') await buildToolchain(process.env, { skaffold: true });
  else if (command === 'down') await clusterDown();
  else if (command === 'dev') process.exitCode = await clusterDev(process.env, args[0] === '--' ? args.slice(1) : args);
  else if (command === 'kubectl') process.exitCode = kubectlCommand(process.env, args[0] === '--' ? args.slice(1) : args);
  else {
    console.error('usage: cluster up | down | build | dev | kubectl -- <args>');
    process.exitCode = 2;
  }
} catch (err) {
  console.error(`\n  ${(err as Error).message}`);
  process.exitCode = 1;
}
