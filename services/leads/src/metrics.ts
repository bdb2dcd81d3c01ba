import { Counter, Histogram, register } from 'prom-client';

// Process-wide registry, get-or-create: in local mode every service shares one process.
const counter = <L extends string>(name: string, help: string, labelNames: L[]): Counter<L> =>
  (register.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames });

export const searchesTotal = counter('leadforge_leads_searches_total', 'Lead searches by stage: started, then completed, failed or cancelled.', ['outcome']);
export const leadsDelivered = counter('leadforge_leads_delivered_total', 'Leads stored for users (each charged 1 credit when its search settles).', []);
export const settlementsTotal = counter('leadforge_leads_settlements_total', 'Credit settlements of ended searches: settled, released, or deferred (billing did not answer; retried).', ['outcome']);
export const timeToFirstLeadSeconds = (register.getSingleMetric('leadforge_leads_time_to_first_lead_seconds') as Histogram | undefined)
  ?? new Histogram({
    name: 'leadforge_leads_time_to_first_lead_seconds',
    help: 'From a search starting to its first lead being stored; observed once per search.',
    buckets: [0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60],
  });
