import { useQuery } from '@tanstack/react-query';
import type { WebhookDeliveryAttempt } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { listDeliveries, webhookKeys } from './webhooksApi';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const STATUS_LABELS: Record<WebhookDeliveryAttempt['delivery_status'], string> = {
  pending: 'Retrying', delivered: 'Delivered', failed: 'Failed',
};

/** How long the list looks for a test event's attempt: sent within a second or two, longer to a slow endpoint. */
const WATCH_MS = 20_000;
const WATCH_EVERY_MS = 1000;

interface Props {
  endpointId: string;
  /** The test event just sent (its delivery id and when it was sent): the list is read again every second until its attempt shows. */
  watch?: { deliveryId: string; sentAt: number };
}

/** One endpoint's latest attempts: when, which event, the answer (status code or error), how long. */
export function WebhookDeliveries({ endpointId, watch }: Props) {
  const deliveries = useQuery({
    queryKey: webhookKeys.deliveries(endpointId),
    queryFn: () => listDeliveries(endpointId),
    // Every attempt is news here: read on every opening.
    staleTime: 0,
    refetchInterval: (query) => {
      if (!watch || Date.now() - watch.sentAt > WATCH_MS) return false;
      return query.state.data?.some((a) => a.delivery_id === watch.deliveryId) ? false : WATCH_EVERY_MS;
    },
  });
  const attempts = deliveries.data;

  return (
    <div className="webhook-deliveries">
      <div className="webhook-deliveries-head">
        <h4>Recent deliveries</h4>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void deliveries.refetch()}>Refresh</button>
      </div>
      {deliveries.isError && <div className="alert alert-error" role="alert">{errorDetail(deliveries.error, 'Could not load the deliveries.')}</div>}
      {deliveries.isPending && <p className="muted">Loading deliveries…</p>}
      {attempts && attempts.length === 0 && <p className="muted">No deliveries yet. Send a test event, or run a search.</p>}
      {attempts && attempts.length > 0 && (
        <div className="leads-table-wrap">
          <table className="webhook-deliveries-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col" className="num">Attempt</th>
                <th scope="col">Response</th>
                <th scope="col" className="num">Duration</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a) => (
                <tr key={`${a.delivery_id}-${a.attempt}`}>
                  <td className="nowrap">{when(a.attempted_at)}</td>
                  <td><code>{a.event}</code></td>
                  <td className="num">{a.attempt}</td>
                  <td>
                    {a.status_code !== null && <span className={`http-code ${a.status_code < 300 ? 'http-ok' : 'http-bad'}`}>{a.status_code}</span>}
                    {a.error && a.status_code === null && <span className="muted">{a.error}</span>}
                  </td>
                  <td className="num">{a.duration_ms} ms</td>
                  <td><span className={`status-badge delivery-${a.delivery_status}`}>{STATUS_LABELS[a.delivery_status]}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
