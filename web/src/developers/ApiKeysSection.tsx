import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { ApiKeySummary, CreatedApiKey } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { copyText } from '../affiliate/copyText';
import { createApiKey, listApiKeys, revokeApiKey } from './apiKeysApi';
import './apiKeys.css';

const EXPIRY_CHOICES = [
  { days: 0, label: 'Never' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
];

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : none);

/** The Developers page's API keys: create one (its secret shown once), list them, revoke one. */
export function ApiKeysSection({ onKeysChange }: { onKeysChange?(keys: ApiKeySummary[]): void }) {
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [error, setError] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await listApiKeys();
      setKeys(list);
      onKeysChange?.(list);
    } catch (err) {
      setError(errorDetail(err, 'Could not load your API keys.'));
    }
  }, [onKeysChange]);
  useEffect(() => { void load(); }, [load]);

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
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      {created && <KeyOnce apiKey={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm onCreated={(key) => { setCreated(key); void load(); }} />
      {keys && keys.length === 0 && <p className="muted">No API keys yet.</p>}
      {keys && keys.length > 0 && (
        <table className="api-keys-table">
          <thead>
            <tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>Expires</th><th aria-label="Actions" /></tr>
          </thead>
          <tbody>
            {keys.map((key) => <KeyRow key={key.id} apiKey={key} onRevoked={() => void load()} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedApiKey): void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError('Please give the key a name, e.g. the tool that will use it.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      onCreated(await createApiKey({ name: name.trim(), ...(days ? { expires_in_days: days } : {}) }));
      setName('');
    } catch (err) {
      setError(errorDetail(err, 'Could not create the key; please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="api-key-form" onSubmit={(e) => void submit(e)} aria-label="Create an API key" noValidate>
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
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Creating…' : 'Create key'}</button>
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

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKeySummary; onRevoked(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const revoke = async () => {
    setBusy(true);
    setError('');
    try {
      await revokeApiKey(apiKey.id);
      onRevoked();
    } catch (err) {
      setError(errorDetail(err, 'Could not revoke the key; please try again.'));
      setBusy(false);
    }
  };

  return (
    <tr data-testid="api-key-row">
      <td>{apiKey.name}</td>
      <td><code>{apiKey.prefix}…</code></td>
      <td>{when(apiKey.created_at, '—')}</td>
      <td>{when(apiKey.last_used_at, 'Never')}</td>
      <td>{when(apiKey.expires_at, 'Never')}</td>
      <td className="api-key-actions">
        {!confirming && <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(true)}>Revoke</button>}
        {confirming && (
          <span className="api-key-confirm" role="group" aria-label={`Revoke ${apiKey.name}?`}>
            <span>Revoke? Scripts using it stop at once.</span>
            <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => void revoke()}>Yes, revoke</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setConfirming(false)}>Keep</button>
          </span>
        )}
        {error && <span className="api-key-error" role="alert">{error}</span>}
      </td>
    </tr>
  );
}
