import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { fetchEnhancedStats, updateCredits } from './adminApi';
import { parseCreditChange, whole } from './format';
import { useNotices } from './notices';
import { useDebounced } from './useDebounced';
import { useRemoteData } from './useRemoteData';

const CHOICES = 100;

/** Sets any user's credits by a signed amount; the user list is searched on the server, not loaded whole. */
export function CreditManagerTab({ version, onChanged }: { version: number; onChanged(): void }) {
  const notices = useNotices();
  const [filter, setFilter] = useState('');
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const query = useDebounced(filter.trim());
  const users = useRemoteData(
    () => fetchEnhancedStats({ include: ['users'], search: query, users_page_size: CHOICES }),
    JSON.stringify([query, version]),
  );
  const choices = users.data?.users ?? [];
  const total = users.data?.users_page?.total ?? 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const change = parseCreditChange(amount);
    if (!userId || !amount.trim()) {
      notices.error('Please select a user and enter credit amount');
      return;
    }
    if (change === null) {
      notices.error('Please enter a whole, non-zero number of credits (negative to remove)');
      return;
    }
    setBusy(true);
    notices.clear();
    try {
      notices.success((await updateCredits(userId, change)).message);
      setAmount('');
      onChanged();
    } catch (err) {
      notices.error(errorDetail(err, 'Failed to update credits'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-tab-body">
      <section className="card admin-section admin-narrow" aria-labelledby="admin-credit-heading">
        <h2 id="admin-credit-heading">Credit Manager</h2>
        <p className="muted">Add credits with a positive number, remove them with a negative one. A balance never goes below zero.</p>
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="admin-credit-filter">Find user</label>
            <input id="admin-credit-filter" type="search" placeholder="Filter by name or email" value={filter} onChange={(e) => { setFilter(e.target.value); setUserId(''); }} />
          </div>
          <div className="field">
            <label htmlFor="admin-credit-user">User</label>
            <select id="admin-credit-user" value={userId} onChange={(e) => setUserId(e.target.value)}>
              <option value="">Select a user...</option>
              {choices.map((u) => <option key={u.id} value={u.id}>{`${u.name} (${u.email}) - ${whole(u.credits)} credits`}</option>)}
            </select>
            {total > choices.length && <p className="field-hint">Showing {choices.length} of {whole(total)} users; type to narrow the list.</p>}
          </div>
          <div className="field">
            <label htmlFor="admin-credit-amount">Credits (+/-)</label>
            <input id="admin-credit-amount" type="number" step={1} placeholder="e.g. 50 or -20" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Updating...' : 'Update Credits'}</button>
        </form>
      </section>
    </div>
  );
}
