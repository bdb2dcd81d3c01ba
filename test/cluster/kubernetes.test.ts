/**
 * The product on a real single-node Kubernetes cluster, built on this machine by `npm run cluster:up`
 * (stack/src/cluster): the chart, the images of `npm run images`, a real API server, kubelet,
 * containerd and runc, KEDA and metrics-server, all in a network namespace with no route out.
 * PostgreSQL, Kafka and Redis run as real servers in that namespace (the chart's external modes), and
 * so do the provider stand-ins this file starts (the fixture web: maps sources and business websites,
 * reached through its forward proxy; its *.fixture.test names are a zone of the cluster's DNS).
 * Through the gateway a user registers, buys credits and searches; then the cluster is hurt (a scraper
 * pod deleted mid-search), loaded (a burst of searches: KEDA scales the scraper), upgraded (a new image
 * tag rolls every Deployment under traffic) and taken down, leaving nothing behind.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { SERVICES } from '@leadforge/contracts';
import { KUBELET_HOST_SYSCTLS } from '../../stack/src/cluster/clusterLayout.ts';
import { CGROUP_ROOT } from '../../stack/src/cluster/clusterComponents.ts';
import { freePort } from '../../stack/src/freePort.ts';
import { containerEngine, imageOf } from '../../stack/src/infrastructure/containers.ts';
import { startFixtureWebProcess, type FixtureWebProcess } from '../../services/scraper/test/fixtureWeb/fixtureWebProcess.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { apiClient, bearer } from '../support/api.ts';
import { emptyPanels } from './support/dashboardQueries.ts';
import { clusterCommand, kubectlRunner, readClusterInfo, serveFixtureZone, type ClusterInfo } from './support/clusterCommands.ts';

const NAMESPACE = 'leadforge';
const DEPLOYMENTS = [...SERVICES, 'gateway', 'web'].sort();
const ROLL_TAG = 'roll';
const readSysctls = () => Object.fromEntries(KUBELET_HOST_SYSCTLS.map((key) => [key, fs.readFileSync(path.join('/proc/sys', key), 'utf8').trim()]));

interface Deployment { metadata: { name: string; generation: number }; spec: { replicas?: number; template: { spec: { containers: Array<{ image: string }> } } }; status: { replicas?: number; readyReplicas?: number; updatedReplicas?: number; observedGeneration?: number; conditions?: Array<{ type: string; status: string }> } }

describe('the product on a single-node Kubernetes cluster built here (npm run cluster:up)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-cluster-'));
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as the postgres user and must reach its directory inside
  let baseEnv: NodeJS.ProcessEnv;
  let productEnv: NodeJS.ProcessEnv;
  let info: ClusterInfo;
  let kubectl: ReturnType<typeof kubectlRunner>;
  let api: ReturnType<typeof apiClient>;
  let web: FixtureWebProcess;
  let sysctlsBefore: Record<string, string>;
  let seq = 0;
  const upOutput: string[] = [];

  const deployments = async () => JSON.parse(await kubectl(['get', 'deployments', '-n', NAMESPACE, '-o', 'json'])).items as Deployment[];
  const scraperReplicas = async () => (await deployments()).find((d) => d.metadata.name === 'scraper')!.spec.replicas ?? 0;
  const register = async (name: string) => {
    const res = await api('POST', '/api/auth/register', { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}-${++seq}@example.com`, password: 'secret123' });
    expect(res.status).toBe(201);
    return { id: res.body.user.id as string, auth: bearer(res.body.access_token) };
  };
  const balance = async (auth: Record<string, string>) => (await api('GET', '/api/auth/me', undefined, auth)).body.credits as number;
  /** Buys a pack through billing's built-in test checkout (the chart's development mode), as the Credits page does. */
  const buy = async (auth: Record<string, string>, planId: string) => {
    const created = await api('POST', '/api/payments/create', { plan_id: planId }, auth);
    expect(created.status).toBe(200);
    expect((await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`)).status).toBe(200);
    const executed = await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, auth);
    expect(executed.body).toMatchObject({ success: true });
    return executed.body.credits_added as number;
  };
  const buyer = async (name: string, planId = 'starter') => {
    const user = await register(name);
    await waitFor(() => balance(user.auth), { until: (b) => b === 10, timeoutMs: 60_000, what: 'the signup grant' });
    await buy(user.auth, planId);
    return user;
  };
  const search = async (auth: Record<string, string>, quantity: number, location: string) => {
    const started = await api('POST', '/api/lead-searches', { industry: 'Dentists', location, quantity }, auth);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.id as string;
  };

  beforeAll(async () => {
    sysctlsBefore = readSysctls();
    baseEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), PROMETHEUS_INTERVAL: '2s' };
    await clusterCommand('up', baseEnv, (line) => upOutput.push(line));
    info = readClusterInfo(dataDir);
    kubectl = kubectlRunner(info);
    api = apiClient(info.gateway);

    // The provider stand-ins inside the cluster's namespace, on the node's address, where pods reach them.
    web = await startFixtureWebProcess({ sites: 150, latencyMs: 60, host: info.node_ip }, { netns: info.netns });
    // Configuration passes through: cluster:up again, with the product variables start:distributed would pass.
    productEnv = {
      ...baseEnv,
      PLACES_SOURCES: 'osm',
      NOMINATIM_URL: web.urls.nominatim,
      OVERPASS_URL: web.urls.overpass,
      DECODO_PROXY_URL: web.urls.proxy,
      SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
      SCRAPER_PER_HOST_DELAY_MS: '0',
      AUTH_REGISTER_PER_IP_PER_HOUR: '1000000',
      BILLING_ORDERS_PER_USER_PER_HOUR: '1000000',
    };
    await clusterCommand('up', productEnv, (line) => upOutput.push(line));
    // The fixture hosts as the cluster's DNS answers them (after cluster:up, which applies CoreDNS's own configuration).
    await serveFixtureZone(info, kubectl);
  }, 3_600_000);

  afterAll(async () => {
    await web?.stop();
    // The last test takes the cluster down; a failed run before it must not leave one running.
    if (fs.existsSync(path.join(dataDir, 'cluster', 'daemon.json'))) await clusterCommand('down', baseEnv).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 300_000);

  it('cluster.json says how to reach it: the gateway and Prometheus on loopback, kubectl, the namespace and the node inside it', () => {
    expect(info).toMatchObject({ namespace: NAMESPACE, node_ip: '198.18.0.2' });
    expect(info.gateway).toBe(`http://127.0.0.1:${baseEnv.PORT}`);
    expect(info.prometheus).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.netns).toMatch(/^\/proc\/\d+\/ns\/net$/);
    expect(fs.readlinkSync(info.netns)).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
  });

  it('the namespace has no default route and no route to the machine\'s network', () => {
    const routes = execFileSync('nsenter', [`--net=${info.netns}`, 'ip', '-4', 'route', 'show', 'table', 'all'], { encoding: 'utf8' });
    expect(routes).not.toMatch(/^default/m);
    const destinations = routes.split('\n').filter((line) => line && !/^(local|broadcast|multicast)\s/.test(line)).map((line) => line.split(' ')[0]);
    for (const destination of destinations) expect(destination).toMatch(/^198\.18\.|^127\./);
  });

  it('the node is Ready and every Deployment of the release is Available, from the images of npm run images', async () => {
    const nodes = JSON.parse(await kubectl(['get', 'nodes', '-o', 'json'])).items as Array<{ metadata: { name: string }; status: { conditions: Array<{ type: string; status: string }>; addresses: Array<{ type: string; address: string }> } }>;
    expect(nodes).toHaveLength(1);
    expect(nodes[0].status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(nodes[0].status.addresses).toContainEqual({ type: 'InternalIP', address: '198.18.0.2' });
    const list = await deployments();
    expect(list.map((d) => d.metadata.name).sort()).toEqual(DEPLOYMENTS);
    for (const deployment of list) {
      expect({ name: deployment.metadata.name, available: deployment.status.conditions?.find((c) => c.type === 'Available')?.status })
        .toEqual({ name: deployment.metadata.name, available: 'True' });
      expect(deployment.spec.template.spec.containers[0].image).toBe(`localhost/${imageOf({}, deployment.metadata.name)}`);
    }
  });

  it('the product variables of cluster:up\'s environment reached the pods (the config map and the Secret)', async () => {
    const config = JSON.parse(await kubectl(['get', 'configmap', 'leadforge-config', '-n', NAMESPACE, '-o', 'json'])).data as Record<string, string>;
    expect(config).toMatchObject({ NOMINATIM_URL: web.urls.nominatim, OVERPASS_URL: web.urls.overpass, PLACES_SOURCES: 'osm', SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true' });
    // The proxy's address is a secret of the scraper's (its secretEnv): in the Secret, not the config map.
    expect(config).not.toHaveProperty('DECODO_PROXY_URL');
    const secret = JSON.parse(await kubectl(['get', 'secret', 'leadforge-secrets', '-n', NAMESPACE, '-o', 'json'])).data as Record<string, string>;
    expect(Buffer.from(secret.DECODO_PROXY_URL, 'base64').toString()).toBe(web.urls.proxy);
  });

  it('through the gateway a user registers, buys credits with the test checkout and runs a search against the stand-ins, getting leads', async () => {
    const user = await register('Cluster Searcher');
    await waitFor(() => balance(user.auth), { until: (b) => b === 10, timeoutMs: 60_000, what: 'the signup grant' });
    expect(await buy(user.auth, 'starter')).toBe(100);
    expect(await balance(user.auth)).toBe(110);
    const id = await search(user.auth, 20, 'London');
    const { messages } = await readFeed(`${info.gateway}/api/lead-searches/${id}/events`, user.auth, { until: (m) => m.event === 'finished', timeoutMs: 300_000 });
    const leads = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
    const finished = messages.find((m) => m.event === 'finished')?.data;
    // The sites were read: most of their emails are on their pages, not in the map's tags.
    expect({ leads: leads.length, finished }).toMatchObject({ leads: 20, finished: { status: 'completed', stats: { with_email: expect.any(Number) } } });
    expect(finished.stats.with_email).toBeGreaterThan(0);
    for (const lead of leads) expect(lead.email || lead.phone, JSON.stringify(lead)).toBeTruthy();
    await waitFor(() => balance(user.auth), { until: (b) => b === 90, timeoutMs: 60_000, what: 'one credit per lead delivered' });
    expect(leads.every((lead: { website?: string }) => /fixture\.test/.test(lead.website ?? ''))).toBe(true);
  }, 600_000);

  it('a scraper pod deleted during a search: the search completes and the credits charged equal the leads delivered', async () => {
    const user = await buyer('Cluster Crash');
    const before = await balance(user.auth);
    const id = await search(user.auth, 60, 'Paris');
    let deleted = '';
    const { messages } = await readFeed(`${info.gateway}/api/lead-searches/${id}/events`, user.auth, {
      until: (m) => m.event === 'finished',
      timeoutMs: 600_000,
      onMessage: (m) => {
        if (m.event !== 'leads' || deleted) return;
        deleted = 'pending';
        // The pod that runs it, killed at once, as a node failure would.
        void kubectl(['delete', 'pod', '-n', NAMESPACE, '-l', 'app.kubernetes.io/component=scraper', '--grace-period=0', '--force', '--wait=false'])
          .then((out) => { deleted = out.trim() || 'deleted'; });
      },
    });
    expect(deleted).toMatch(/deleted/);
    const finished = messages.find((m) => m.event === 'finished')!;
    const leads = messages.filter((m) => m.event === 'leads').flatMap((m) => m.data.leads);
    expect(finished.data.status).toBe('completed');
    expect(new Set(leads.map((l: { place_id: string }) => l.place_id)).size).toBe(leads.length);
    expect(leads.length).toBeGreaterThan(0);
    const after = await waitFor(() => balance(user.auth), { until: (b) => b === before - leads.length, timeoutMs: 60_000, what: 'credits equal to the leads' });
    expect(before - after).toBe(leads.length);
  }, 900_000);

  it('metrics-server serves kubectl top for the release\'s pods', async () => {
    const top = await waitFor(() => kubectl(['top', 'pods', '-n', NAMESPACE, '--no-headers']), { until: (out) => out.split('\n').filter(Boolean).length >= DEPLOYMENTS.length, timeoutMs: 180_000, intervalMs: 5000, what: 'kubectl top pods' });
    expect(top).toMatch(/^auth-\S+\s+\d+m\s+\d+Mi/m);
  }, 200_000);

  it('a burst of searches scales the scraper above its minimum through KEDA, and idle scales it back', async () => {
    const scaledObject = JSON.parse(await kubectl(['get', 'scaledobject', 'scraper', '-n', NAMESPACE, '-o', 'json']));
    const min = scaledObject.spec.minReplicaCount as number;
    expect(await scraperReplicas()).toBe(min);
    // A dozen searches at once: two per user, as many as one user may have running (LEADS_MAX_RUNNING_PER_USER).
    const users = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((name) => buyer(`Burst ${name}`, 'growth')));
    const burstStarted = Date.now();
    const ids = await Promise.all(users.flatMap((user, u) => [0, 1].map((i) => search(user.auth, 40, `Burst ${u}-${i}`))));
    const scaledTo = await waitFor(scraperReplicas, { until: (n) => n > min, timeoutMs: 180_000, intervalMs: 1000, what: 'the scraper scaled above its minimum' });
    const scaleUpSeconds = (Date.now() - burstStarted) / 1000;
    expect(scaledTo).toBeGreaterThan(min);
    const hpa = JSON.parse(await kubectl(['get', 'hpa', '-n', NAMESPACE, '-o', 'json'])).items[0];
    expect(hpa.metadata.ownerReferences?.[0]?.kind).toBe('ScaledObject');
    for (const [u, user] of users.entries()) {
      for (const id of ids.slice(u * 2, u * 2 + 2)) {
        await waitFor(async () => (await api('GET', `/api/lead-searches/${id}`, undefined, user.auth)).body.status, { until: (s) => s === 'completed' || s === 'failed', timeoutMs: 600_000, intervalMs: 2000, what: `search ${id} finished` });
      }
    }
    const back = await waitFor(scraperReplicas, { until: (n) => n === min, timeoutMs: 300_000, intervalMs: 2000, what: 'the scraper back at its minimum' });
    expect(back).toBe(min);
    console.log(`  scraper ${min} -> ${scaledTo} replicas ${scaleUpSeconds.toFixed(0)} s after the burst started`);
  }, 1_200_000);

  it('Prometheus scrapes every service pod, the alert rules load, and every dashboard panel\'s query returns data', async () => {
    const query = async (pathAndQuery: string) => {
      const body = await (await fetch(`${info.prometheus}${pathAndQuery}`, { signal: AbortSignal.timeout(10_000) })).json() as { status: string; data: any; error?: string };
      if (body.status !== 'success') throw new Error(`${pathAndQuery}: ${body.error}`);
      return body.data;
    };
    const pods = JSON.parse(await kubectl(['get', 'pods', '-n', NAMESPACE, '-l', 'leadforge.io/role=service', '-o', 'json'])).items
      .filter((p: { status: { phase: string } }) => p.status.phase === 'Running').map((p: { metadata: { name: string } }) => p.metadata.name).sort();
    const targets = await waitFor(async () => (await query('/api/v1/targets?state=active')).activeTargets as Array<{ labels: Record<string, string>; health: string }>, {
      until: (list) => pods.every((pod: string) => list.some((t) => t.labels.pod === pod && t.health === 'up')), timeoutMs: 120_000, intervalMs: 2000, what: 'every service pod scraped',
    });
    for (const target of targets.filter((t) => pods.includes(t.labels.pod))) expect(target.labels).toMatchObject({ namespace: NAMESPACE, service: target.labels.pod.replace(/-[^-]+-[^-]+$/, '') });
    const rules = ((await query('/api/v1/rules')).groups as Array<{ rules: Array<{ name: string; health: string }> }>).flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThan(5);
    // Traffic every dashboard shows beside the searches above: a synchronous search and a contact message.
    const user = await buyer('Cluster Watcher');
    expect((await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Rome', quantity: 3 }, user.auth)).status).toBe(200);
    expect((await api('POST', '/api/contact', { name: 'Watcher', email: 'watcher@example.com', message: 'Hello from the cluster', recaptcha_token: `local-test.${'c'.repeat(32)}` })).status).toBe(201);
    await waitFor(async () => ((await query('/api/v1/rules')).groups as Array<{ rules: Array<{ health: string }> }>).flatMap((g) => g.rules), { until: (list) => list.every((r) => r.health === 'ok'), timeoutMs: 60_000, what: 'every rule evaluated' });
    const start = Date.now() / 1000 - 1800;
    let empty: string[] = ['nothing read yet'];
    await waitFor(async () => {
      // The release buys through billing's test checkout (the chart's development mode), which calls no PayPal:
      // the PayPal panels are checked against a PayPal stand-in in test/distributed.
      empty = (await emptyPanels(query, start, 10)).filter((where) => !/paypal/i.test(where));
      return empty;
    }, { until: (list) => list.length === 0, timeoutMs: 120_000, intervalMs: 5000, what: 'a series for every panel' }).catch(() => undefined);
    expect(empty).toEqual([]);
  }, 600_000);

  it('helm upgrade to a changed image tag rolls every Deployment, with no failed request to /api/auth/me meanwhile', async () => {
    const user = await register('Cluster Roller');
    const engine = containerEngine(process.env);
    for (const name of DEPLOYMENTS) execFileSync(engine.command, ['tag', `localhost/${imageOf({}, name)}`, `localhost/${imageOf({ IMAGE_TAG: ROLL_TAG }, name)}`], { env: engine.env });
    const failures: string[] = [];
    let requests = 0;
    let rolling = true;
    // A fresh connection each time, as a new visitor would open one: the forwarder, the Service and the pods all change under it.
    const poller = (async () => {
      while (rolling) {
        requests++;
        try {
          const res = await fetch(`${info.gateway}/api/auth/me`, { headers: { ...user.auth, connection: 'close' }, signal: AbortSignal.timeout(15_000) });
          if (res.status !== 200) failures.push(`${res.status} ${(await res.text()).slice(0, 200)}`);
          else await res.arrayBuffer();
        } catch (err) {
          failures.push(String((err as Error).cause ?? err));
        }
      }
    })();
    try {
      await clusterCommand('up', { ...productEnv, IMAGE_TAG: ROLL_TAG });
    } finally {
      rolling = false;
      await poller;
    }
    const list = await deployments();
    for (const deployment of list) {
      expect({ name: deployment.metadata.name, image: deployment.spec.template.spec.containers[0].image, updated: deployment.status.updatedReplicas === deployment.status.replicas })
        .toEqual({ name: deployment.metadata.name, image: `localhost/${imageOf({ IMAGE_TAG: ROLL_TAG }, deployment.metadata.name)}`, updated: true });
    }
    // The old pods go once their pre-stop pause and shutdown are over (a terminating pod still reads Running).
    type PodOf = { metadata: { name: string }; status: { phase: string }; spec: { containers: Array<{ image: string }> } };
    const oldPods = async () => (JSON.parse(await kubectl(['get', 'pods', '-n', NAMESPACE, '-o', 'json'])).items as PodOf[])
      .filter((p) => p.status.phase === 'Running' && !p.spec.containers[0]!.image.endsWith(`:${ROLL_TAG}`)).map((p) => p.metadata.name);
    expect(await waitFor(oldPods, { until: (names) => names.length === 0, timeoutMs: 120_000, intervalMs: 2000, what: 'the old pods gone' })).toEqual([]);
    expect(requests).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 1_200_000);

  it('cluster:down leaves no process, mount, cgroup, namespace or changed host setting behind', async () => {
    const netnsInode = fs.readlinkSync(info.netns);
    // The test's own stand-ins live in the namespace too: they go first, as a user's would.
    await web.stop();
    await clusterCommand('down', baseEnv);
    const inNamespace = fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/ns/net`) === netnsInode;
      } catch {
        return false;
      }
    });
    expect(inNamespace).toEqual([]);
    expect(fs.existsSync(info.netns)).toBe(false);
    const mounts = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').filter((line) => line.includes(dataDir) || line.includes('/run/leadforge/'));
    expect(mounts).toEqual([]);
    const cgroups = fs.readdirSync('/sys/fs/cgroup').filter((h) => fs.existsSync(path.join('/sys/fs/cgroup', h, CGROUP_ROOT)));
    expect(cgroups).toEqual([]);
    expect(readSysctls()).toEqual(sysctlsBefore);
    expect(fs.existsSync(path.join(dataDir, 'cluster', 'cluster.json'))).toBe(false);
  }, 300_000);
});
