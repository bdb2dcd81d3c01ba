/**
 * Prometheus watching the product as `npm run start:distributed` runs it: the project's scrape
 * configuration and alert rules (deploy/prometheus, the files the chart ships) over every service
 * process and scraper replica, and the Grafana dashboards' queries (deploy/grafana) against what it
 * scraped after real traffic: a purchase, a streamed search and a synchronous one, a contact message.
 *
 * It runs on the stack of test/distributed/product.test.ts (a production shape costs a minute of both
 * cores to start), which starts it with 1 s scrapes and rule evaluations, and with the alert rules'
 * durations divided by 60 (PROMETHEUS_RULE_TIME_SCALE): a rule that waits 10 minutes in production
 * waits 10 s here; its thresholds are as written.
 */
import { parse } from 'yaml';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';
import { readFeed } from '../../services/leads/test/support/feedReader.ts';
import { apiClient, bearer } from '../support/api.ts';
import { emptyPanels, panelQueries } from '../cluster/support/dashboardQueries.ts';
import type { PaypalStandIn } from '../../services/billing/test/support/paypalStandIn.ts';
import type { DistributedStackProcess } from '../support/distributedStack.ts';

const INSTANCES = ['auth', 'billing', 'leads', 'scraper-1', 'scraper-2', 'affiliate', 'contact', 'admin'];
const RULES = parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy/prometheus/alerts.yaml'), 'utf8'));
interface Series { metric: Record<string, string>; values?: Array<[number, string]>; value?: [number, string] }
interface Alert { labels: Record<string, string>; state: 'pending' | 'firing' }

export function describePrometheusWatching(shared: () => { stack: DistributedStackProcess; paypal: PaypalStandIn }): void {
  describe('Prometheus over the production shape', () => {
    let stack: DistributedStackProcess;
    let paypal: PaypalStandIn;
    let api: ReturnType<typeof apiClient>;
    let prometheus: string;
    let startedAt: number;

    const query = async (pathAndQuery: string) => {
      const res = await fetch(`${prometheus}${pathAndQuery}`, { signal: AbortSignal.timeout(10_000) });
      const body = await res.json() as { status: string; data: any; error?: string };
      if (body.status !== 'success') throw new Error(`${pathAndQuery}: ${body.error}`);
      return body.data;
    };
    const alerts = async (name: string) => ((await query('/api/v1/alerts')).alerts as Alert[]).filter((a) => a.labels.alertname === name);

    beforeAll(async () => {
      ({ stack, paypal } = shared());
      startedAt = Date.now() / 1000;
      api = apiClient(stack.url);
      prometheus = stack.topology().prometheus!;

      // The traffic every dashboard shows: a purchase, a streamed and a synchronous search, a contact message.
      const reg = await api('POST', '/api/auth/register', { name: 'Watched Buyer', email: 'watched.buyer@example.com', password: 'secret123' });
      expect(reg.status).toBe(201);
      const auth = bearer(reg.body.access_token);
      await waitFor(async () => (await api('GET', '/api/auth/me', undefined, auth)).body.credits, { until: (c) => c === 10, timeoutMs: 60_000, what: 'the signup grant' });
      const created = await api('POST', '/api/payments/create', { plan_id: 'starter' }, auth);
      paypal.approve(created.body.payment_id);
      expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, auth)).body).toMatchObject({ success: true });
      const search = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: 10 }, auth);
      expect(search.status).toBe(201);
      await readFeed(`${stack.url}/api/lead-searches/${search.body.id}/events`, auth, { until: (m) => m.event === 'finished', timeoutMs: 120_000 });
      expect((await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Paris', quantity: 3 }, auth)).status).toBe(200);
      expect((await api('POST', '/api/contact', { name: 'Watcher', email: 'watcher@example.com', message: 'Hello', recaptcha_token: `local-test.${'a'.repeat(32)}` })).status).toBe(201);
    }, 900_000);

    it('topology.json names Prometheus; it scrapes every service process and scraper replica, each target up', async () => {
      expect(prometheus).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(stack.component('prometheus').url).toBe(prometheus);
      const targets = await waitFor(async () => (await query('/api/v1/targets?state=active')).activeTargets as Array<{ labels: Record<string, string>; health: string; lastError: string }>, {
        until: (list) => list.length === INSTANCES.length && list.every((t) => t.health === 'up'), timeoutMs: 30_000, what: 'every target up',
      });
      expect(targets.map((t) => t.labels.pod).sort()).toEqual([...INSTANCES].sort());
      for (const target of targets) expect({ pod: target.labels.pod, service: target.labels.service, health: target.health, error: target.lastError })
        .toEqual({ pod: target.labels.pod, service: target.labels.pod.replace(/-\d+$/, ''), health: 'up', error: '' });
    });

    it('every alert rule of deploy/prometheus/alerts.yaml is loaded and evaluates without error', async () => {
      const expected = RULES.groups.flatMap((g: { rules: Array<{ alert: string }> }) => g.rules.map((r) => r.alert)).sort();
      const rules = await waitFor(async () => ((await query('/api/v1/rules')).groups as Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }>).flatMap((g) => g.rules), {
        until: (list) => list.length === expected.length && list.every((r) => r.health !== 'unknown'), timeoutMs: 30_000, what: 'every rule evaluated',
      });
      expect(rules.map((r) => r.name).sort()).toEqual(expected);
      expect(rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.health} ${r.lastError}`)).toEqual([]);
    });

    it('every Grafana dashboard panel\'s query returns at least one series after a purchase and searches', async () => {
      const queries = panelQueries();
      expect(queries.length).toBeGreaterThan(40);
      // The rate windows need a few scrapes after the traffic; a timeout leaves the last look, naming every empty panel.
      let empty: string[] = ['nothing read yet'];
      await waitFor(async () => {
        empty = await emptyPanels(query, startedAt, 5);
        return empty;
      }, { until: (list) => list.length === 0, timeoutMs: 90_000, intervalMs: 5000, what: 'a series for every panel' }).catch(() => undefined);
      expect(empty).toEqual([]);
    }, 120_000);

    it('the broker frozen while contact messages keep coming: the outbox-backlog alert goes pending, then firing, and resolves once the broker is back', async () => {
      const broker = stack.component('kafka');
      // Straight to the contact service: Envoy's edge limit (2 contact messages a second) would take minutes to pass 100.
      const contact = `${stack.component('contact').url}/api/contact`;
      const seen: string[] = [];
      const refused: string[] = [];
      let sent = 0;
      let sending = true;
      process.kill(broker.pid, 'SIGSTOP');
      try {
        // Writes keep answering while the broker is away; their events wait in the contact service's outbox.
        const sender = (async () => {
          while (sending) {
            const res = await fetch(contact, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ name: 'Backlog', email: `backlog-${sent}@example.com`, message: 'While the broker sleeps', recaptcha_token: `local-test.${sent.toString(16).padStart(32, '0')}` }),
            });
            if (res.status !== 201) {
              refused.push(`${res.status} ${await res.text()}`);
              return;
            }
            sent += 1;
          }
        })();
        await waitFor(async () => {
          const states = (await alerts('LeadforgeOutboxBacklogGrowing')).filter((a) => a.labels.service === 'contact').map((a) => a.state);
          for (const state of states) if (seen.at(-1) !== state) seen.push(state);
          return states;
        }, { until: (states) => states.includes('firing') || refused.length > 0, timeoutMs: 180_000, intervalMs: 250, what: 'LeadforgeOutboxBacklogGrowing firing for contact' });
        sending = false;
        await sender;
      } finally {
        sending = false;
        process.kill(broker.pid, 'SIGCONT');
      }
      expect(refused).toEqual([]);
      expect(seen).toEqual(['pending', 'firing']);
      expect(sent).toBeGreaterThan(100);
      await waitFor(() => alerts('LeadforgeOutboxBacklogGrowing'), { until: (list) => list.length === 0, timeoutMs: 180_000, intervalMs: 500, what: 'the alert resolved' });
      const drained = async () => (await query(`/api/v1/query?${new URLSearchParams({ query: 'leadforge_work_queue_depth{service="contact", queue="outbox"}' })}`)).result.map((s: Series) => Number(s.value![1]));
      expect(await waitFor(drained, { until: (values) => values.length === 1 && values[0] === 0, timeoutMs: 120_000, intervalMs: 500, what: 'the contact outbox drained' })).toEqual([0]);
    }, 420_000);
  });
}
