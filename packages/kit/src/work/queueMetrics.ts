import { Counter, Gauge, register } from 'prom-client';

type QueueLabels = 'service' | 'queue';

export interface QueueMeasure {
  /** Rows waiting to be worked on (due or not). */
  depth: number;
  /** Age of the oldest waiting row; 0 when none waits. */
  oldestAgeSeconds: number;
  /** Rows given up on, kept to be looked into and replayed. */
  parked: number;
}

export type WorkOutcomeLabel = 'done' | 'retried' | 'parked';

/** The queues measured at each scrape, by `service/queue`. */
const measured = new Map<string, { service: string; queue: string; measure: () => Promise<QueueMeasure> }>();

let snapshot: Promise<Map<string, QueueMeasure>> | undefined;

/** One query per queue for all three gauges of a scrape. */
function measureAll(): Promise<Map<string, QueueMeasure>> {
  snapshot ??= (async () => {
    const results = new Map<string, QueueMeasure>();
    await Promise.all([...measured].map(async ([key, queue]) => {
      // A queue whose database does not answer is left out of this scrape rather than failing it.
      const measure = await queue.measure().catch(() => undefined);
      if (measure) results.set(key, measure);
    }));
    return results;
  })().finally(() => setTimeout(() => { snapshot = undefined; }, 0));
  return snapshot;
}

function queueGauge(name: string, help: string, pick: (measure: QueueMeasure) => number): Gauge<QueueLabels> {
  return (register.getSingleMetric(name) as Gauge<QueueLabels> | undefined) ?? new Gauge({
    name,
    help,
    labelNames: ['service', 'queue'],
    async collect() {
      const results = await measureAll();
      this.reset();
      for (const [key, measure] of results) {
        const queue = measured.get(key);
        if (queue) this.set({ service: queue.service, queue: queue.queue }, pick(measure));
      }
    },
  });
}

queueGauge('leadforge_work_queue_depth', 'Rows a background queue has still to work on.', (m) => m.depth);
queueGauge('leadforge_work_queue_oldest_age_seconds', 'Age of the oldest row a background queue has still to work on.', (m) => m.oldestAgeSeconds);
queueGauge('leadforge_work_queue_parked', 'Rows a background queue gave up on (parked: visible and replayable).', (m) => m.parked);

const attempts = (register.getSingleMetric('leadforge_work_attempts_total') as Counter<QueueLabels | 'outcome'> | undefined)
  ?? new Counter({ name: 'leadforge_work_attempts_total', help: 'Attempts of background queues by outcome (done, retried, parked).', labelNames: ['service', 'queue', 'outcome'] });

/** Measures the queue at every scrape until the returned function is called. */
export function measureQueue(service: string, queue: string, measure: () => Promise<QueueMeasure>): () => void {
  const key = `${service}/${queue}`;
  const entry = { service, queue, measure };
  measured.set(key, entry);
  return () => {
    if (measured.get(key) === entry) measured.delete(key);
  };
}

export function countAttempt(service: string, queue: string, outcome: WorkOutcomeLabel, count = 1): void {
  attempts.inc({ service, queue, outcome }, count);
}
