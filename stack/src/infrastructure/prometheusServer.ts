import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { freePort } from '../freePort.ts';
import { isExecutable, MissingPrerequisite } from './prerequisites.ts';
import { spawnServer, waitUntilReady } from './serverProcess.ts';

/** One process to scrape: `host:port`, and the labels its series get (`service`, `pod`). */
export interface ScrapeTarget {
  address: string;
  labels: Record<string, string>;
}

export interface PrometheusServerOptions {
  /** Holds the configuration as run, the rules, the targets and the time series database; its log goes next to it. */
  workDir: string;
  /** The project's configuration (deploy/prometheus/prometheus.yaml); its rule files and file_sd target files are read relative to it. */
  configFile: string;
  /** Written to each file_sd target file of the configuration. */
  targets: ScrapeTarget[];
  /** A free port when not given. */
  port?: number;
  /** Replaces the configuration's scrape and rule evaluation interval, e.g. `1s`. */
  interval?: string;
  /**
   * Divides every duration in the alert rules (`for:` and range selectors) by this factor: a rehearsal
   * in which a 10-minute alert fires after 10 s (60). Thresholds stay as written. Default 1.
   */
  ruleTimeScale?: number;
  /** Receives the server's log lines instead of `<workDir>/../prometheus.log`. */
  log?: (line: string) => void;
  /** Lets the configuration be completed where only the caller knows it (a cluster's API server and credentials). */
  completeConfig?: (config: Record<string, unknown> & { scrape_configs?: Array<Record<string, unknown>> }) => void;
}

export interface PrometheusServer {
  port: number;
  pid: number;
  /** Settles when the process ends, however it ended (how, in words). */
  exited: Promise<string>;
  url: string;
  /** SIGTERM (Prometheus flushes its head block); SIGKILL when it has not stopped after 30 s. */
  stop(): Promise<void>;
}

const INSTALL = 'apt-get install -y prometheus';
const DURATION = /^(\d+(?:ms|[smhdwy]))+$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };

/** `prometheus` from PATH, else Debian's /usr/bin/prometheus. */
export function findPrometheus(): string {
  const candidates = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin'];
  const found = candidates.map((dir) => path.join(dir, 'prometheus')).find(isExecutable);
  if (!found) throw new MissingPrerequisite('Prometheus server (prometheus)', INSTALL);
  return found;
}

/** A Prometheus duration (`10m`, `1h30m`) divided by `factor`, in whole milliseconds at least 1 ms. */
export function scaleDuration(duration: string, factor: number): string {
  if (!DURATION.test(duration)) throw new Error(`not a Prometheus duration: ${duration}`);
  const ms = [...duration.matchAll(/(\d+)(ms|[smhdwy])/g)].reduce((sum, [, n, unit]) => sum + Number(n) * UNIT_MS[unit], 0);
  const scaled = Math.max(1, Math.round(ms / factor));
  return scaled % 1000 === 0 ? `${scaled / 1000}s` : `${scaled}ms`;
}

/** A rule file with every `for:` and every range or subquery duration (`[10m]`, `[30m:1m]`) divided by `factor`. */
export function scaleRuleDurations(rules: { groups: Array<{ rules: Array<Record<string, unknown>> }> }, factor: number) {
  if (factor === 1) return rules;
  const scaleExpr = (expr: string) => expr.replace(/\[(\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*)(?::(\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*))?\]/g,
    (_, range: string, step?: string) => `[${scaleDuration(range, factor)}${step ? `:${scaleDuration(step, factor)}` : ''}]`);
  return {
    ...rules,
    groups: rules.groups.map((group) => ({
      ...group,
      rules: group.rules.map((rule) => ({
        ...rule,
        expr: scaleExpr(String(rule.expr)),
        ...(typeof rule.for === 'string' ? { for: scaleDuration(rule.for, factor) } : {}),
      })),
    })),
  };
}

/**
 * Prometheus as a server of its own: the project's configuration with its rule files copied into
 * `workDir` (durations scaled when asked), the targets written for its file service discovery, the
 * time series database under `workDir/data` (kept between starts), listening on loopback only.
 */
export async function startPrometheus(options: PrometheusServerOptions): Promise<PrometheusServer> {
  const binary = findPrometheus();
  if (options.interval !== undefined && !DURATION.test(options.interval)) throw new Error(`Prometheus interval ${JSON.stringify(options.interval)} is not a duration such as 15s or 1m`);
  const workDir = path.resolve(options.workDir);
  const configDir = path.dirname(path.resolve(options.configFile));
  fs.mkdirSync(path.join(workDir, 'rules'), { recursive: true });
  const config = parse(fs.readFileSync(options.configFile, 'utf8'));

  if (options.interval) config.global = { ...config.global, scrape_interval: options.interval, evaluation_interval: options.interval };
  config.rule_files = (config.rule_files ?? []).map((file: string) => {
    const rules = scaleRuleDurations(parse(fs.readFileSync(path.resolve(configDir, file), 'utf8')), options.ruleTimeScale ?? 1);
    const copy = path.join(workDir, 'rules', path.basename(file));
    fs.writeFileSync(copy, stringify(rules, { lineWidth: 0 }));
    return copy;
  });
  const targetsFile = path.join(workDir, 'targets.json');
  fs.writeFileSync(targetsFile, `${JSON.stringify(options.targets.map((t) => ({ targets: [t.address], labels: t.labels })), null, 2)}\n`);
  for (const job of config.scrape_configs ?? []) {
    for (const sd of job.file_sd_configs ?? []) sd.files = [targetsFile];
  }
  options.completeConfig?.(config);
  const configFile = path.join(workDir, 'prometheus.yml');
  fs.writeFileSync(configFile, stringify(config, { lineWidth: 0 }));

  const port = options.port ?? (await freePort());
  const server = spawnServer(binary, [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${path.join(workDir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ], { cwd: workDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, log: options.log, logFile: path.join(path.dirname(workDir), 'prometheus.log'), stopSignal: 'SIGTERM' });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(server, `Prometheus on 127.0.0.1:${port} (${workDir})`, () => fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false), 60_000);
  return { port, pid: server.pid, exited: server.exited, url, stop: () => server.stop(30_000) };
}
