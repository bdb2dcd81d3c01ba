import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type CreatedWebhookEndpoint, type WebhookEndpoint, type WebhookEventName } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { copyText } from '../affiliate/copyText';
import { WebhookDeliveries } from './WebhookDeliveries';
import { createWebhook, deleteWebhook, listWebhooks, sendTestEvent, webhookKeys } from './webhooksApi';
import './webhooks.css';

const EVENT_HINTS: Record<WebhookEventName, string> = {
  'lead_search.completed': 'a search ended with its leads',
  'lead_search.failed': 'a search could not run (nothing charged)',
  'monitor.run.completed': "a monitor's run ended, with the businesses you never had",
};

/** The Developers page's webhooks: add an endpoint (its secret shown once), send a test, see deliveries, delete. */
export function WebhooksSection() {
  const list = useQuery({ queryKey: webhookKeys.endpoints, queryFn: listWebhooks });
  const endpoints = list.data;
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);

  return (
    <section className="card webhooks-section" aria-labelledby="webhooks-heading">
      <div className="card-head">
        <h2 id="webhooks-heading">Webhooks</h2>
      </div>
      <p className="muted">
        Leadforge calls your URL when a search ends, signed with the endpoint&apos;s secret
        (<code>Leadforge-Signature</code>). Failed calls are retried for 24 hours with the same <code>Leadforge-Delivery</code> id.
      </p>
      {list.isError && <div className="alert alert-error" role="alert">{errorDetail(list.error, 'Could not load your webhooks.')}</div>}
      {created && <SecretOnce endpoint={created} onDone={() => setCreated(null)} />}
      <AddWebhookForm onCreated={setCreated} />
      {list.isPending && <p className="muted">Loading your webhooks…</p>}
      {endpoints && endpoints.length === 0 && <p className="muted">No webhook endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <ul className="webhook-list">
          {endpoints.map((endpoint) => (
            <WebhookItem key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AddWebhookForm({ onCreated }: { onCreated(endpoint: CreatedWebhookEndpoint): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventName[]>([...WEBHOOK_EVENTS]);
  const [invalid, setInvalid] = useState('');
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: createWebhook,
    onSuccess: (endpoint) => {
      onCreated(endpoint);
      setUrl('');
      return queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints });
    },
  });
  const error = invalid || (add.isError ? errorDetail(add.error, 'Could not add this webhook; please try again.') : '');

  const toggle = (event: WebhookEventName) =>
    setEvents((current) => (current.includes(event) ? current.filter((e) => e !== event) : [...current, event]));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!events.length) {
      setInvalid('Choose at least one event.');
      add.reset();
      return;
    }
    setInvalid('');
    add.mutate({ url: url.trim(), events });
  };

  return (
    <form className="webhook-form" onSubmit={submit} aria-label="Add a webhook endpoint">
      <div className="field">
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input id="webhook-url" type="url" required maxLength={2048} placeholder="https://example.com/hooks/leadforge" value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <fieldset className="webhook-events">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="checkbox">
            <input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} />
            <code>{event}</code> <span className="muted">— {EVENT_HINTS[event]}</span>
          </label>
        ))}
      </fieldset>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>{add.isPending ? 'Adding…' : 'Add endpoint'}</button>
    </form>
  );
}

/** The signing secret, shown once right after the endpoint is made: the server never shows it again. */
function SecretOnce({ endpoint, onDone }: { endpoint: CreatedWebhookEndpoint; onDone(): void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="alert alert-success webhook-secret" role="status">
      <p><strong>Signing secret for {endpoint.url}</strong> — copy it now: it is shown only once.</p>
      <div className="webhook-secret-row">
        <code data-testid="webhook-secret">{endpoint.secret}</code>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyText(endpoint.secret).then(setCopied)}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === false && <p>Copying did not work here; select the secret and copy it by hand.</p>}
      <button type="button" className="btn btn-secondary btn-sm" onClick={onDone}>I have saved it</button>
    </div>
  );
}

function WebhookItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => sendTestEvent(endpoint.id),
    onSuccess: () => setShowDeliveries(true),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(endpoint.id),
    // Pending until the list without this endpoint has arrived.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
    onError: () => setConfirming(false),
  });
  const busy = test.isPending || remove.isPending;
  const failure = remove.isError ? errorDetail(remove.error, 'Could not delete this webhook.') : test.isError ? errorDetail(test.error, 'Could not send a test event.') : '';

  return (
    <li className="webhook-item">
      <div className="webhook-item-head">
        <div>
          <code className="webhook-url">{endpoint.url}</code>
          <p className="muted">{endpoint.events.join(', ')} · added {new Date(endpoint.created_at).toLocaleDateString()}</p>
        </div>
        {confirming ? (
          <div className="webhook-confirm" role="group" aria-label="Delete this webhook?">
            <span>Delete this endpoint? Pending retries are dropped.</span>
            <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => remove.mutate()}>Delete</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setConfirming(false)}>Keep</button>
          </div>
        ) : (
          <div className="webhook-actions">
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => { remove.reset(); test.mutate(); }} aria-label={`Send test event to ${endpoint.url}`}>Send test event</button>
            <button type="button" className="btn btn-secondary btn-sm" aria-expanded={showDeliveries} onClick={() => setShowDeliveries((v) => !v)}>
              {showDeliveries ? 'Hide deliveries' : 'Deliveries'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(true)} aria-label={`Delete ${endpoint.url}`}>Delete</button>
          </div>
        )}
      </div>
      {test.isSuccess && <p className="muted" role="status">Test event sent; its delivery shows below.</p>}
      {failure && <div className="alert alert-error" role="alert">{failure}</div>}
      {showDeliveries && <WebhookDeliveries endpointId={endpoint.id} watch={test.data ? { deliveryId: test.data, sentAt: test.submittedAt } : undefined} />}
    </li>
  );
}
