import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import kafkajs from 'kafkajs';
import { freePort } from '../freePort.ts';
import { isExecutable, leadforgeCacheDir, MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

/** The pom naming the broker's jars; its `kafka.version` names the cache folder. */
const POM = fileURLToPath(new URL('../../kafka/pom.xml', import.meta.url));
const JAVA_INSTALL = 'apt-get install -y openjdk-17-jre-headless';
const MAVEN_INSTALL = 'apt-get install -y maven';
/** Written last into a fetched folder, holding the pom's hash: a folder without it (or with another pom's) is fetched again. */
const COMPLETE_MARKER = 'complete';

export interface EnsureKafkaOptions {
  /** `$LEADFORGE_CACHE_DIR` or ~/.cache/leadforge when not given. */
  cacheDir?: string;
  /** Progress lines (one when the jars are fetched). */
  log?: (line: string) => void;
}

export interface KafkaBrokerOptions extends EnsureKafkaOptions {
  /** Holds server.properties, the log segments and broker.log; a second start on it keeps topics and offsets. */
  dataDir: string;
  /** The clients' port; the one of the last start on dataDir, else a free one, when not given. */
  port?: number;
  /** The KRaft controller's port; chosen like `port`. */
  controllerPort?: number;
  /** Maximum JVM heap (default 512). */
  heapMb?: number;
  /** The address it listens on and advertises (default 127.0.0.1; a cluster's node address inside its namespace). */
  host?: string;
}

export interface KafkaBroker {
  /** `<host>:<port>`, for KAFKA_BROKERS. */
  bootstrap: string;
  port: number;
  controllerPort: number;
  /** The JVM itself. */
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  dataDir: string;
  /** SIGTERM (controlled shutdown, a few seconds); SIGKILL when it has not stopped after 30 s. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would; the next start on dataDir recovers the logs. */
  kill(): Promise<void>;
}

/** The broker version the pom pins. */
export function kafkaVersion(): string {
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(fs.readFileSync(POM, 'utf8'));
  if (!match) throw new Error(`${POM} names no kafka.version`);
  return match[1].trim();
}

function onPath(name: string, extra: string[] = []): string | undefined {
  const dirs = [...extra, ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin'];
  return dirs.map((dir) => path.join(dir, name)).find(isExecutable);
}

/** `java` of JAVA_HOME, else from PATH; 17 or newer (the broker's jars are Java 17 classes). */
export function findJava(): string {
  const java = onPath('java', process.env.JAVA_HOME ? [path.join(process.env.JAVA_HOME, 'bin')] : []);
  if (!java) throw new MissingPrerequisite('Java 17', JAVA_INSTALL);
  const version = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 30_000 });
  const major = Number(/version "(?:1\.)?(\d+)/.exec(`${version.stderr}${version.stdout}`)?.[1] ?? 0);
  if (major < 17) throw new MissingPrerequisite('Java 17', JAVA_INSTALL, `is too old (${java} is Java ${major || 'of unknown version'})`);
  return java;
}

export function findMaven(): string {
  const mvn = onPath('mvn');
  if (!mvn) throw new MissingPrerequisite('Maven', MAVEN_INSTALL);
  return mvn;
}

/** What this machine lacks to run the broker (Java 17, and Maven until the jars are cached), or undefined. */
export function missingKafkaPrerequisite(): MissingPrerequisite | undefined {
  try {
    findJava();
    findMaven();
    return undefined;
  } catch (error) {
    if (error instanceof MissingPrerequisite) return error;
    throw error;
  }
}

function isComplete(dir: string, pomHash: string): boolean {
  try {
    return fs.readFileSync(path.join(dir, COMPLETE_MARKER), 'utf8') === pomHash;
  } catch {
    return false;
  }
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/**
 * The broker's jars, fetched from Maven Central once into `<cacheDir>/kafka-<version>/libs`.
 * They are fetched into a folder of their own and renamed into place only when complete, so an
 * interrupted fetch is never taken for a finished one.
 */
export async function ensureKafka(options: EnsureKafkaOptions = {}): Promise<{ libDir: string }> {
  findJava();
  const version = kafkaVersion();
  const pomHash = crypto.createHash('sha256').update(fs.readFileSync(POM)).digest('hex');
  const cacheDir = path.resolve(options.cacheDir ?? leadforgeCacheDir());
  const home = path.join(cacheDir, `kafka-${version}`);
  const libDir = path.join(home, 'libs');
  if (isComplete(home, pomHash)) return { libDir };

  const mvn = findMaven();
  fs.mkdirSync(cacheDir, { recursive: true });
  const partial = fs.mkdtempSync(path.join(cacheDir, `kafka-${version}.partial-`));
  try {
    options.log?.(`fetching Apache Kafka ${version} from Maven Central (once) into ${home} ...`);
    const fetched = await run(mvn, ['-q', '-B', 'dependency:copy-dependencies', '-f', POM, `-DoutputDirectory=${path.join(partial, 'libs')}`], 15 * 60_000);
    if (fetched.code !== 0) throw new Error(`mvn could not fetch Apache Kafka ${version} (exit ${fetched.code}):\n${fetched.output.trim()}`);
    fs.writeFileSync(path.join(partial, COMPLETE_MARKER), pomHash);
    // Another process may have finished the same fetch meanwhile; an incomplete leftover goes.
    if (!isComplete(home, pomHash)) {
      fs.rmSync(home, { recursive: true, force: true });
      try {
        fs.renameSync(partial, home);
      } catch (error) {
        if (!isComplete(home, pomHash)) throw error;
      }
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return { libDir };
}

/** The ports of the last start on dataDir, so a restart keeps the address clients know. */
function previousPorts(propertiesFile: string): { port?: number; controllerPort?: number } {
  if (!fs.existsSync(propertiesFile)) return {};
  const listeners = /^listeners=(.*)$/m.exec(fs.readFileSync(propertiesFile, 'utf8'))?.[1] ?? '';
  const portOf = (name: string) => Number(new RegExp(`${name}://[^:,]+:(\\d+)`).exec(listeners)?.[1]) || undefined;
  return { port: portOf('PLAINTEXT'), controllerPort: portOf('CONTROLLER') };
}

function serverProperties(logDir: string, host: string, port: number, controllerPort: number): string {
  const settings: Record<string, string | number> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@${host}:${controllerPort}`,
    listeners: `PLAINTEXT://${host}:${port},CONTROLLER://${host}:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://${host}:${port}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': logDir,
    // One node: every internal topic has one replica.
    'offsets.topic.replication.factor': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    'group.initial.rebalance.delay.ms': 0,
    // Made when the first group or transaction appears: 50 partitions each (the defaults) take seconds on a small machine.
    'offsets.topic.num.partitions': 4,
    'transaction.state.log.num.partitions': 4,
    // The bus creates its topics with their settings; a typo'd name must not make one.
    'auto.create.topics.enable': 'false',
    'num.partitions': 1,
    'num.network.threads': 2,
    'num.io.threads': 4,
    'num.recovery.threads.per.data.dir': 1,
  };
  return `${Object.entries(settings).map(([name, value]) => `${name}=${value}`).join('\n')}\n`;
}

/** INFO and up into broker.log, errors also on stderr so a failed start shows why. */
function log4jProperties(logFile: string): string {
  return [
    'status = warn',
    'appender.file.type = File',
    'appender.file.name = file',
    `appender.file.fileName = ${logFile}`,
    'appender.file.layout.type = PatternLayout',
    'appender.file.layout.pattern = [%d] %p %m (%c)%n',
    'appender.stderr.type = Console',
    'appender.stderr.name = stderr',
    'appender.stderr.target = SYSTEM_ERR',
    'appender.stderr.filter.threshold.type = ThresholdFilter',
    'appender.stderr.filter.threshold.level = error',
    'appender.stderr.layout.type = PatternLayout',
    'appender.stderr.layout.pattern = %p %m (%c)%n',
    'rootLogger.level = info',
    'rootLogger.appenderRef.file.ref = file',
    'rootLogger.appenderRef.stderr.ref = stderr',
    '',
  ].join('\n');
}

/** A KRaft cluster id: 16 random bytes, base64url; one starting with '-' would read as an option. */
function newClusterId(): string {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function jvmArgs(dataDir: string, heapMb: number): string[] {
  return [
    `-Xmx${heapMb}m`,
    `-Xms${Math.min(heapMb, 128)}m`,
    // A dev broker on a small machine: one GC thread, and the quick C1 compiler only, for a shorter start.
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${path.join(dataDir, 'log4j2.properties')}`,
    `-Dkafka.logs.dir=${dataDir}`,
  ];
}

/**
 * Class data sharing: the first broker started from a jar folder records the classes it loaded
 * into an archive next to the jars when it stops; later starts map that archive instead of loading
 * and verifying those classes again (about a second less on two cores). Each recording is written
 * under a name of its own and moved into place whole.
 */
function classArchive(libDir: string): { args: string[]; keep(): void; discard(): void } {
  const archive = path.join(path.dirname(libDir), 'classes.jsa');
  // A JVM without these options ignores them; its CDS notes would only clutter broker.out.
  const common = ['-XX:+IgnoreUnrecognizedVMOptions', '-Xlog:cds=off', '-Xlog:cds+dynamic=off'];
  if (fs.existsSync(archive)) return { args: [...common, `-XX:SharedArchiveFile=${archive}`], keep() {}, discard() {} };
  // Recordings of brokers that never stopped cleanly (their starter was killed) are never moved into place.
  for (const name of fs.readdirSync(path.dirname(archive))) {
    const file = path.join(path.dirname(archive), name);
    if (name.endsWith('.partial') && name.startsWith('classes.jsa.') && Date.now() - fs.statSync(file).mtimeMs > 60 * 60_000) fs.rmSync(file, { force: true });
  }
  const recording = `${archive}.${crypto.randomBytes(6).toString('hex')}.partial`;
  return {
    args: [...common, `-XX:ArchiveClassesAtExit=${recording}`],
    keep() {
      if (!fs.existsSync(recording)) return;
      if (fs.existsSync(archive)) fs.rmSync(recording, { force: true });
      else fs.renameSync(recording, archive);
    },
    discard: () => fs.rmSync(recording, { force: true }),
  };
}

async function answers(bootstrap: string): Promise<boolean> {
  const admin = new kafkajs.Kafka({
    clientId: 'leadforge-broker-probe',
    brokers: [bootstrap],
    logLevel: kafkajs.logLevel.NOTHING,
    connectionTimeout: 1000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const { brokers } = await admin.describeCluster();
    return brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * One Apache Kafka node in KRaft mode (broker and controller), on 127.0.0.1 only (or `host`), run as `java`
 * itself in its own process group. The storage is formatted only on the first start on dataDir.
 */
export async function startKafka(options: KafkaBrokerOptions): Promise<KafkaBroker> {
  const { libDir } = await ensureKafka(options);
  const java = findJava();
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const propertiesFile = path.join(dataDir, 'server.properties');
  const previous = previousPorts(propertiesFile);
  const port = options.port ?? previous.port ?? (await freePort());
  const controllerPort = options.controllerPort ?? previous.controllerPort ?? (await freePort());
  const logDir = path.join(dataDir, 'log');
  const host = options.host ?? '127.0.0.1';
  fs.writeFileSync(propertiesFile, serverProperties(logDir, host, port, controllerPort));
  fs.writeFileSync(path.join(dataDir, 'log4j2.properties'), log4jProperties(path.join(dataDir, 'broker.log')));
  const classPath = ['-cp', `${libDir}/*`];
  const jvm = jvmArgs(dataDir, options.heapMb ?? 512);
  const cds = classArchive(libDir);

  if (!fs.existsSync(path.join(logDir, 'meta.properties'))) {
    const formatted = await run(java, [...jvm, ...classPath, 'kafka.tools.StorageTool', 'format', '-t', newClusterId(), '-c', propertiesFile], 120_000);
    if (formatted.code !== 0) throw new Error(`formatting the Kafka storage in ${logDir} failed (exit ${formatted.code}):\n${formatted.output.trim()}`);
  }

  const server = spawnServer(java, [...jvm, ...cds.args, ...classPath, 'kafka.Kafka', propertiesFile], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dataDir, LANG: 'C.UTF-8' },
    logFile: path.join(dataDir, 'broker.out'),
    // Controlled shutdown: the broker hands its partitions over and closes its logs cleanly.
    stopSignal: 'SIGTERM',
  });
  const bootstrap = `${host}:${port}`;
  await waitUntilReady(server, `Kafka on ${bootstrap} (${dataDir})`, () => answers(bootstrap), 120_000);
  return {
    bootstrap,
    port,
    controllerPort,
    pid: server.pid,
    exited: server.exited,
    dataDir,
    async stop() {
      await server.stop(30_000);
      cds.keep();
    },
    async kill() {
      if (server.running()) process.kill(server.pid, 'SIGKILL');
      await server.exited;
      cds.discard();
    },
  };
}
