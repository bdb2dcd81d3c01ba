import { useCallback, useEffect, useState } from 'react';
import type { WebhookDeliveryAttempt } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { listDeliveries } from './webhooksApi';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const STATUS_LABELS: Record<WebhookDeliveryAttempt['delivery_status'], string> = {
  pending: 'Retrying', delivered: 'Delivered', failed: 'Failed',
};

interface Props {
  endpointId: string;
  /** Changes when a test event was just sent: the list reloads and watches for its attempt. */
  version: number;
}

/** One endpoint's latest attempts: when, which event, the answer (status code or error), how long. */
export function WebhookDeliveries({ endpointId, version }: Props) {
  const [attempts, setAttempts] = useState<WebhookDeliveryAttempt[] | null>(null);
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    try {
      setAttempts(await listDeliveries(endpointId));
      setError('');
    } catch (err) {
      setError(errorDetail(err, 'Could not load the deliveries.'));
    }
  }, [endpointId]);

  useEffect(() => {
    void load();
    if (version === 0) return undefined;
    // A test event is sent within a second or two (longer if the endpoint is slow): look again a few times.
    const timers = [1000, 3000, 8000, 15000].map((ms) => setTimeout(() => void load(), ms));
    return () => timers.forEach(clearTimeout);
  }, [load, version]);

  return (
    <div className="webhook-deliveries">
      <div className="webhook-deliveries-head">
        <h4>Recent deliveries</h4>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void load()}>Refresh</button>
      </div>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
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
