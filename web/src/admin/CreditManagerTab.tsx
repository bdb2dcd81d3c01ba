import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { adminKeys, fetchEnhancedStats, updateCredits, type StatsQuery } from './adminApi';
import { parseCreditChange, whole } from './format';
import { useNotices } from './notices';
import { useDebounced } from './useDebounced';

const CHOICES = 100;

/** Sets any user's credits by a signed amount; the user list is searched on the server, not loaded whole. */
export function CreditManagerTab({ onChanged }: { onChanged(): void }) {
  const notices = useNotices();
  const [filter, setFilter] = useState('');
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const search = useDebounced(filter.trim());
  const query: StatsQuery = { include: ['users'], search, users_page_size: CHOICES };
  const users = useQuery({ queryKey: adminKeys.stats(query), queryFn: () => fetchEnhancedStats(query), placeholderData: keepPreviousData });
  const choices = users.data?.users ?? [];
  const total = users.data?.users_page?.total ?? 0;
  const creditChange = useMutation({
    mutationFn: (change: { userId: string; credits: number }) => updateCredits(change.userId, change.credits),
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      notices.success(answer.message);
      setAmount('');
      onChanged();
    },
    onError: (err) => notices.error(errorDetail(err, 'Failed to update credits')),
  });

  function submit(event: FormEvent) {
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
    creditChange.mutate({ userId, credits: change });
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
            {users.isPending && <p className="field-hint">Loading users...</p>}
            {users.isError && <p className="alert alert-error">{errorDetail(users.error, 'Failed to fetch admin data')}</p>}
            {total > choices.length && <p className="field-hint">Showing {choices.length} of {whole(total)} users; type to narrow the list.</p>}
          </div>
          <div className="field">
            <label htmlFor="admin-credit-amount">Credits (+/-)</label>
            <input id="admin-credit-amount" type="number" step={1} placeholder="e.g. 50 or -20" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={creditChange.isPending}>{creditChange.isPending ? 'Updating...' : 'Update Credits'}</button>
        </form>
      </section>
    </div>
  );
}
