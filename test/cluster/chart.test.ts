import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KEPT_TOPICS, SERVICES, TOPICS } from '@leadforge/contracts';
import { PROJECTED_TOPICS } from '../../services/admin/src/readModels/readModelProjection.ts';
import { REPO_ROOT, workspaceServices } from '../../deploy/workspaceServices.ts';
import { validateObject, type K8sObject } from './support/k8sSchemas.ts';
import { CHART_DIR, DEV_VALUES, ensureHelm, helmLint, helmTemplate, LOCAL_CLUSTER_VALUES } from './support/helmChart.ts';

const values = parse(fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8'));
const SERVICE_MONITOR_API = ['--api-versions', 'monitoring.coreos.com/v1/ServiceMonitor'];

/** The configuration variables (README, "Configuration") that are secrets: only ever referenced from a Secret. */
const SECRET_VARIABLES = ['INTERNAL_TOKEN', 'JWT_PRIVATE_KEY', 'PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID', 'RECAPTCHA_SECRET',
  'GOOGLE_PLACES_API_KEY', 'DECODO_SCRAPER_TOKEN', 'DECODO_PROXY_URL', 'DECODO_API_KEY'];
/** The rest of them (PORT is the gateway's; in the cluster each container gets PORT=8080). */
const CONFIG_VARIABLES = ['PORT', 'DATA_DIR', 'KAFKA_BROKERS', 'REDIS_URL', 'PAYPAL_API_BASE', 'RECAPTCHA_SITE_KEY', 'RECAPTCHA_VERIFY_URL', 'PLACES_SOURCES',
  'SCRAPER_PROVIDER_REQUESTS_PER_SEARCH', 'SCRAPER_EMPTY_SITE_CACHE_HOURS', 'NOMINATIM_URL', 'OVERPASS_URL', 'GOOGLE_PLACES_API_BASE', 'DECODO_SCRAPER_API_BASE', 'DECODO_API_BASE', 'SCRAPER_ALLOW_PRIVATE_NETWORKS',
  'EMAIL_MX_CHECK', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'ADMIN_EMAILS'];

const RENDERINGS: Record<string, string[]> = {
  'default values': [],
  'values-dev.yaml': ['-f', DEV_VALUES],
  'values-local-cluster.yaml (npm run cluster:up)': ['-f', DEV_VALUES, '-f', LOCAL_CLUSTER_VALUES],
  'KEDA off': ['--set', 'scraper.autoscaling.keda=false'],
  'Prometheus Operator present': SERVICE_MONITOR_API,
  'external Postgres, Kafka and Redis': ['--set', 'postgres.mode=external', '--set', 'kafka.mode=external', '--set', 'kafka.external.brokers=kafka-1.example:9092', '--set', 'redis.mode=external'],
};

const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const containerOf = (deployment: K8sObject) => deployment.spec.template.spec.containers[0];

describe('Helm chart charts/leadforge', () => {
  beforeAll(ensureHelm, 600_000);

  it('passes helm lint --strict with the default values, values-dev.yaml and values-local-cluster.yaml', () => {
    expect(helmLint()).toContain('0 chart(s) failed');
    expect(helmLint(['-f', DEV_VALUES])).toContain('0 chart(s) failed');
    expect(helmLint(['-f', DEV_VALUES, '-f', LOCAL_CLUSTER_VALUES])).toContain('0 chart(s) failed');
  });

  it('describes every value of values.yaml and values-dev.yaml in values.schema.json', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8'));
    const undescribed: string[] = [];
    const walk = (value: unknown, node: any, at: string) => {
      if (!node || typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [key, child] of Object.entries(value)) {
        const declared = node.properties?.[key];
        if (declared) {
          if (!declared.description) undescribed.push(`${at}${key}`);
          walk(child, declared, `${at}${key}.`);
        } else if (typeof node.additionalProperties === 'object') {
          walk(child, node.additionalProperties, `${at}${key}.`);
        } else {
          undescribed.push(`${at}${key} (not in the schema)`);
        }
      }
    };
    walk(values, schema, '');
    walk(parse(fs.readFileSync(DEV_VALUES, 'utf8')), schema, 'values-dev: ');
    walk(parse(fs.readFileSync(LOCAL_CLUSTER_VALUES, 'utf8')), schema, 'values-local-cluster: ');
    expect(undescribed).toEqual([]);
  });

  it('refuses values outside values.schema.json', () => {
    expect(() => helmTemplate(['--set', 'services.auth.replicas=two'])).toThrow(/want integer/);
    expect(() => helmTemplate(['--set', 'gateway.replcas=2'])).toThrow(/additional properties 'replcas' not allowed/);
    expect(() => helmTemplate(['--set', 'config.INTERNAL_TOKEN=in-a-configmap'])).toThrow(/config/);
  });

  for (const [name, args] of Object.entries(RENDERINGS)) {
    it(`renders objects valid against the Kubernetes schemas: ${name}`, async () => {
      const objects = helmTemplate(args);
      expect(objects.length).toBeGreaterThan(10);
      const problems = (await Promise.all(objects.map(validateObject))).flat();
      expect(problems).toEqual([]);
    });
  }

  it('the schema check does catch unknown fields and wrong types', async () => {
    const deployment = find(helmTemplate(), 'Deployment', 'auth')!;
    containerOf(deployment).readinesProbe = containerOf(deployment).readinessProbe;
    deployment.spec.replicas = 'two';
    const problems = (await validateObject(deployment)).join('\n');
    expect(problems).toContain('readinesProbe: unknown field');
    expect(problems).toContain('replicas must be integer');
  });

  it('gives every service of the workspace a Deployment with probes, resources and a hardened pod, a Service, a PDB, a NetworkPolicy and a migration Job', () => {
    const services = workspaceServices();
    expect(services.length).toBeGreaterThan(0);
    for (const [rendering, args] of Object.entries(RENDERINGS)) {
      const objects = helmTemplate(args);
      for (const service of services) {
        const at = `${service} (${rendering})`;
        const deployment = find(objects, 'Deployment', service);
        expect(deployment, `Deployment ${at}: add "${service}: {}" under services in charts/leadforge/values.yaml`).toBeDefined();
        const pod = deployment!.spec.template.spec;
        const container = containerOf(deployment!);
        expect(container.startupProbe.httpGet.path, at).toBe('/healthz');
        expect(container.livenessProbe.httpGet.path, at).toBe('/healthz');
        expect(container.readinessProbe.httpGet.path, at).toBe('/readyz');
        expect(container.resources.requests.cpu && container.resources.requests.memory && container.resources.limits.memory, at).toBeTruthy();
        expect(pod.securityContext.runAsNonRoot, at).toBe(true);
        expect(container.securityContext.readOnlyRootFilesystem, at).toBe(true);
        expect(container.securityContext.allowPrivilegeEscalation, at).toBe(false);
        const shutdown = Number(container.env.find((e: { name: string }) => e.name === 'SHUTDOWN_TIMEOUT_SECONDS').value);
        expect(pod.terminationGracePeriodSeconds, `grace period covers preStop + shutdown (${at})`).toBeGreaterThan(container.lifecycle.preStop.sleep.seconds + shutdown);
        expect(container.env.some((e: { name: string }) => e.name === `${service.toUpperCase()}_DATABASE_URL`), at).toBe(true);

        const svc = find(objects, 'Service', service);
        expect(svc?.spec.ports[0].port, `Service ${at}`).toBe(8080);
        expect(svc!.spec.selector).toEqual(deployment!.spec.selector.matchLabels);
        expect(find(objects, 'PodDisruptionBudget', service), `PDB ${at}`).toBeDefined();
        const policy = find(objects, 'NetworkPolicy', service);
        expect(policy?.spec.podSelector.matchLabels, `NetworkPolicy ${at}`).toEqual(deployment!.spec.selector.matchLabels);
        expect(policy!.spec.policyTypes).toEqual(['Ingress', 'Egress']);
        const job = find(objects, 'Job', `${service}-migrate`);
        expect(job?.spec.template.spec.containers[0].args[0], `migration Job ${at}`).toBe('--migrate-only');
        expect(job!.spec.template.spec.containers[0].image).toBe(container.image);
        expect(job!.metadata.annotations!['helm.sh/hook']).toContain('pre-upgrade');
      }
    }
  });

  it('runs services with NODE_ENV=production, except on a laptop with values-dev.yaml', () => {
    expect(find(helmTemplate(), 'ConfigMap', 'leadforge-config')!.data.NODE_ENV).toBe('production');
    expect(find(helmTemplate(['-f', DEV_VALUES]), 'ConfigMap', 'leadforge-config')!.data.NODE_ENV).toBe('development');
  });

  it('gives the scraper its places sources (a comma list), its per-search provider request budget and how long monitors skip sites found empty', () => {
    const scraperEnvOf = (args: string[]) => {
      const objects = helmTemplate(args);
      const scraper = containerOf(find(objects, 'Deployment', 'scraper')!);
      expect(scraper.envFrom).toContainEqual({ configMapRef: { name: 'leadforge-config' } });
      return find(objects, 'ConfigMap', 'leadforge-config')!.data;
    };
    expect(scraperEnvOf([])).toMatchObject({ PLACES_SOURCES: 'osm', SCRAPER_PROVIDER_REQUESTS_PER_SEARCH: '60', SCRAPER_EMPTY_SITE_CACHE_HOURS: '168' });
    expect(scraperEnvOf(['--set', 'config.PLACES_SOURCES=osm\\,google\\,decodo', '--set-string', 'config.SCRAPER_PROVIDER_REQUESTS_PER_SEARCH=120']))
      .toMatchObject({ PLACES_SOURCES: 'osm,google,decodo', SCRAPER_PROVIDER_REQUESTS_PER_SEARCH: '120' });
  });

  it('lists in values.yaml only services of the route table, and every one of them', () => {
    expect(Object.keys(values.services).sort()).toEqual([...SERVICES].sort());
  });

  it('limits each service\'s database traffic to its own database', () => {
    const objects = helmTemplate();
    for (const service of workspaceServices()) {
      const egress = find(objects, 'NetworkPolicy', service)!.spec.egress;
      const databases = egress.flatMap((rule: any) => rule.to ?? []).map((peer: any) => peer.podSelector?.matchLabels?.['cnpg.io/cluster']).filter(Boolean);
      expect(databases, service).toEqual([`${service}-db`]);
      expect(find(objects, 'Cluster', `${service}-db`)?.spec.bootstrap.initdb.database).toBe(service);
    }
    const web = find(objects, 'NetworkPolicy', 'web')!;
    expect(web.spec.ingress[0].from[0].podSelector.matchLabels['leadforge.io/role']).toBe('gateway');
  });

  it('scales the scraper with KEDA on Kafka lag, capped by the proxy quota, or with an HPA on CPU when KEDA is off', () => {
    const cap = Math.min(values.scraper.autoscaling.maxReplicas, Math.floor(values.scraper.proxyConcurrency / values.scraper.concurrencyPerReplica));
    const withKeda = helmTemplate();
    const scaled = find(withKeda, 'ScaledObject', 'scraper')!;
    expect(scaled.spec.maxReplicaCount).toBe(cap);
    expect(scaled.spec.triggers[0]).toMatchObject({ type: 'kafka', metadata: { topic: TOPICS.leadsSearch, consumerGroup: values.scraper.autoscaling.consumerGroup } });
    const openJobs = scaled.spec.triggers.find((t: any) => t.type === 'postgresql');
    expect(openJobs.metadata.targetQueryValue).toBe(String(values.scraper.jobsPerReplica));
    const scraperEnv = containerOf(find(withKeda, 'Deployment', 'scraper')!).env.map((e: any) => e.name);
    expect(scraperEnv, 'KEDA reads the connection from the scraper container').toContain(openJobs.metadata.connectionFromEnv);
    expect(find(withKeda, 'HorizontalPodAutoscaler', 'scraper')).toBeUndefined();
    expect(find(withKeda, 'Deployment', 'scraper')!.spec.replicas, 'KEDA owns the replica count').toBeUndefined();

    if (workspaceServices().includes('scraper')) {
      const sources = (fs.readdirSync(path.join(REPO_ROOT, 'services/scraper/src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
      const groupUsed = sources.some((f) => fs.readFileSync(path.join(REPO_ROOT, 'services/scraper/src', f), 'utf8').includes(`ctx.consume('${values.scraper.autoscaling.consumerGroup}'`));
      expect(groupUsed, 'the chart scales on the consumer group the scraper really uses').toBe(true);
    }

    const tight = helmTemplate(['--set', 'scraper.proxyConcurrency=20', '--set', 'scraper.concurrencyPerReplica=8']);
    expect(find(tight, 'ScaledObject', 'scraper')!.spec.maxReplicaCount).toBe(2);

    const withoutKeda = helmTemplate(['--set', 'scraper.autoscaling.keda=false']);
    expect(find(withoutKeda, 'ScaledObject', 'scraper')).toBeUndefined();
    const hpa = find(withoutKeda, 'HorizontalPodAutoscaler', 'scraper')!;
    expect(hpa.spec.maxReplicas).toBe(cap);
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
  });

  it('never puts a secret in a ConfigMap, and references every configuration variable', () => {
    const canaries = Object.fromEntries(SECRET_VARIABLES.map((key) => [key, `canary-${key.toLowerCase()}-0123456789abcdef`]));
    const objects = helmTemplate(['--set', 'secrets.create=true', ...Object.entries(canaries).flatMap(([k, v]) => ['--set', `secrets.values.${k}=${v}`]), ...SERVICE_MONITOR_API]);
    const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
    for (const configMap of configMaps) {
      const text = JSON.stringify(configMap.data);
      for (const [key, canary] of Object.entries(canaries)) {
        expect(text, `${configMap.metadata.name} holds ${key}`).not.toContain(canary);
        expect(Object.keys(configMap.data ?? {}), configMap.metadata.name).not.toContain(key);
      }
    }
    // Nothing but the Secret itself carries the values; Deployments only reference keys.
    const rendered = JSON.stringify(objects.filter((o) => o.kind !== 'Secret'));
    for (const canary of Object.values(canaries)) expect(rendered).not.toContain(canary);

    const config = find(objects, 'ConfigMap', 'leadforge-config')!;
    const containers = objects.filter((o) => o.kind === 'Deployment' && o.metadata.labels?.['leadforge.io/role'] === 'service').map(containerOf);
    const secretRefs = new Set(containers.flatMap((c) => c.env.filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => e.name)));
    const literalEnv = new Set(containers.flatMap((c) => c.env.filter((e: any) => 'value' in e).map((e: any) => e.name)));
    for (const key of SECRET_VARIABLES) expect(secretRefs, `${key} comes from a Secret`).toContain(key);
    for (const key of CONFIG_VARIABLES) {
      const configured = key in config.data || literalEnv.has(key) || key in values.config;
      expect(configured, `${key} is configurable`).toBe(true);
    }
  });

  it('sets up every topic of packages/contracts with partitions, replication and retention', () => {
    expect([...values.kafka.topics.names].sort()).toEqual(Object.values(TOPICS).sort());
    const topics = helmTemplate().filter((o) => o.kind === 'KafkaTopic');
    expect(topics.map((t) => t.spec.topicName).sort()).toEqual(Object.values(TOPICS).sort());
    expect([...values.kafka.topics.keptForever].sort()).toEqual([...KEPT_TOPICS].sort());
    for (const topic of topics) {
      expect(topic.spec.partitions).toBe(values.kafka.topics.partitions);
      const kept = (KEPT_TOPICS as readonly string[]).includes(topic.spec.topicName);
      expect(topic.spec.config['retention.ms'], topic.spec.topicName).toBe(kept ? -1 : values.kafka.topics.retentionHours * 3600_000);
    }
  });

  it('keeps forever every topic the admin read models replay, so a rebuild sees the whole history', () => {
    for (const topic of PROJECTED_TOPICS) expect(KEPT_TOPICS, topic).toContain(topic);
  });

  it('ships ServiceMonitors and the alert rules only with the Prometheus Operator, and the dashboards for Grafana\'s sidecar', () => {
    const plain = helmTemplate();
    expect(plain.filter((o) => o.kind === 'ServiceMonitor')).toEqual([]);
    const withOperator = helmTemplate(SERVICE_MONITOR_API);
    for (const service of workspaceServices()) expect(find(withOperator, 'ServiceMonitor', service)?.spec.endpoints[0].path).toBe('/metrics');
    const rules = find(withOperator, 'PrometheusRule', 'leadforge-alerts')!;
    expect(rules.spec).toEqual(parse(fs.readFileSync(path.join(CHART_DIR, 'files/prometheus/alerts.yaml'), 'utf8')));
    const dashboards = plain.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
    const files = fs.readdirSync(path.join(CHART_DIR, 'files/grafana')).filter((f) => f.endsWith('.json'));
    expect(dashboards.length).toBe(files.length);
    for (const d of dashboards) for (const json of Object.values<string>(d.data)) expect(() => JSON.parse(json)).not.toThrow();
  });
});
