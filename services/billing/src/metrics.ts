import { Counter, register } from 'prom-client';

// Process-wide registry, get-or-create: in local mode every service shares one process.
function counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
  return (register.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames });
}

export const creditsMoved = counter('leadforge_billing_credits_total', 'Credits moved through the ledger, by reason and direction (in/out).', ['reason', 'direction']);
export const purchasesTotal = counter('leadforge_billing_purchases_total', 'Purchases by kind and outcome (created, completed, pending, failed, refunded).', ['kind', 'outcome']);
export const revenueCents = counter('leadforge_billing_revenue_cents_total', 'Captured revenue in US cents, by provider mode.', ['mode']);
export const reservationsTotal = counter('leadforge_billing_reservations_total', 'Credit reservations by outcome (held, insufficient, settled, released).', ['outcome']);
export const paypalCalls = counter('leadforge_billing_paypal_calls_total', 'Calls to PayPal by operation and outcome (ok, retry, unavailable, refused).', ['operation', 'outcome']);
export const webhooksTotal = counter('leadforge_billing_webhooks_total', 'PayPal webhook deliveries by event type and outcome.', ['event_type', 'outcome']);
