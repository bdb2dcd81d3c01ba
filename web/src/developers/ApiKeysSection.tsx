import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiKeySummary, CreatedApiKey } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { copyText } from '../affiliate/copyText';
import { apiKeysQuery, createApiKey, revokeApiKey } from './apiKeysApi';
import './apiKeys.css';

const EXPIRY_CHOICES = [
  { days: 0, label: 'Never' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
];

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : none);

/** The Developers page's API keys: create one (its secret shown once), list them, revoke one. */
export function ApiKeysSection() {
  const list = useQuery(apiKeysQuery);
  const keys = list.data;
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  return (
    <section className="card api-keys-section" aria-labelledby="api-keys-heading">
      <div className="card-head">
        <h2 id="api-keys-heading">API keys</h2>
      </div>
      <p className="muted">
        A key lets your scripts and tools search for leads, read your history and download exports as you,
        with the header <code>X-API-Key</code>. It cannot change your account, manage keys or buy credits.
        A password reset revokes every key; so does a password change, unless you choose to keep them.
      </p>
      {list.isError && <div className="alert alert-error" role="alert">{errorDetail(list.error, 'Could not load your API keys.')}</div>}
      {created && <KeyOnce apiKey={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm onCreated={setCreated} />
      {list.isPending && <p className="muted">Loading your API keys…</p>}
      {keys && keys.length === 0 && <p className="muted">No API keys yet.</p>}
      {keys && keys.length > 0 && (
        <table className="api-keys-table">
          <thead>
            <tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>Expires</th><th aria-label="Actions" /></tr>
          </thead>
          <tbody>
            {keys.map((key) => <KeyRow key={key.id} apiKey={key} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedApiKey): void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState(0);
  const [invalid, setInvalid] = useState('');
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: (key) => {
      onCreated(key);
      setName('');
      return queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
    },
  });
  const error = invalid || (create.isError ? errorDetail(create.error, 'Could not create the key; please try again.') : '');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setInvalid('Please give the key a name, e.g. the tool that will use it.');
      create.reset();
      return;
    }
    setInvalid('');
    create.mutate({ name: name.trim(), ...(days ? { expires_in_days: days } : {}) });
  };

  return (
    <form className="api-key-form" onSubmit={submit} aria-label="Create an API key" noValidate>
      <div className="field">
        <label htmlFor="api-key-name">Name</label>
        <input id="api-key-name" maxLength={80} placeholder="CRM sync" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="api-key-expiry">Expires</label>
        <select id="api-key-expiry" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {EXPIRY_CHOICES.map((choice) => <option key={choice.days} value={choice.days}>{choice.label}</option>)}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create key'}</button>
      {error && <div className="alert alert-error api-key-form-error" role="alert">{error}</div>}
    </form>
  );
}

/** The secret, shown once right after creation: the server keeps only its hash. */
function KeyOnce({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone(): void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="alert alert-success api-key-secret" role="status">
      <p><strong>Your new key “{apiKey.name}”</strong> — copy it now: it is shown only once.</p>
      <div className="api-key-secret-row">
        <code data-testid="api-key-secret">{apiKey.key}</code>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyText(apiKey.key).then(setCopied)}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === false && <p>Copying did not work here; select the key and copy it by hand.</p>}
      <button type="button" className="btn btn-secondary btn-sm" onClick={onDone}>I have saved it</button>
    </div>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKeySummary }) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  // Pending until the list without this key has arrived, so the row never flickers back to idle.
  const revoke = useMutation({
    mutationFn: () => revokeApiKey(apiKey.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  });
  const busy = revoke.isPending;

  return (
    <tr data-testid="api-key-row">
      <td className="api-key-name">{apiKey.name}</td>
      <td data-label="Key"><code>{apiKey.prefix}…</code></td>
      <td data-label="Created">{when(apiKey.created_at, '—')}</td>
      <td data-label="Last used">{when(apiKey.last_used_at, 'Never')}</td>
      <td data-label="Expires">{when(apiKey.expires_at, 'Never')}</td>
      <td className="api-key-actions">
        {!confirming && <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(true)}>Revoke</button>}
        {confirming && (
          <span className="api-key-confirm" role="group" aria-label={`Revoke ${apiKey.name}?`}>
            <span>Revoke? Scripts using it stop at once.</span>
            <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => revoke.mutate()}>Yes, revoke</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setConfirming(false)}>Keep</button>
          </span>
        )}
        {revoke.isError && <span className="api-key-error" role="alert">{errorDetail(revoke.error, 'Could not revoke the key; please try again.')}</span>}
      </td>
    </tr>
  );
}
