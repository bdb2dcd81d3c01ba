import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OptOutEntry, OptOutPreview, OptOutScope, OptOutStatus } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { decideOptOut, fetchOptOuts, optOutKeys, previewOptOut, type OptOutDecision, type OptOutListQuery } from '../optOut/optOutApi';
import { dateTime, whole } from './format';
import { useNotices } from './notices';
import { Pager } from './Pager';
import { useConfirm } from './useConfirm';
import { useDebounced } from './useDebounced';

const PAGE_SIZE = 20;

const STATUS_BADGE: Record<OptOutStatus, string> = {
  unconfirmed: 'admin-badge',
  applied: 'admin-badge admin-badge-success',
  approved: 'admin-badge admin-badge-success',
  pending: 'admin-badge admin-badge-warning',
  rejected: 'admin-badge',
  lifted: 'admin-badge',
};

const DONE: Record<OptOutDecision, string> = {
  approve: 'Opt-out approved',
  reject: 'Opt-out request rejected',
  lift: 'Suppression lifted',
};

const plural = (n: number, one: string, many: string) => `${whole(n)} ${n === 1 ? one : many}`;

/** What an approval will blank in searches already made, in words. */
export function previewText(preview: OptOutPreview): string {
  const reach = preview.scope === 'domain'
    ? `every site under ${preview.value}, not only the host that was asked for`
    : `${preview.value} and its subdomains`;
  const blanks = preview.leads === 0
    ? 'This approval blanks no leads in past searches'
    : `This approval will blank ${plural(preview.leads, 'lead', 'leads')} in ${plural(preview.users, "user's", "users'")} searches (${plural(preview.searches, 'search', 'searches')})`;
  return `${blanks}: it covers ${reach}. New searches will leave them out.`;
}

/** Where a website request reaches: its host and subdomains, or a whole domain an administrator chose. */
function Coverage({ entry }: { entry: OptOutEntry }) {
  if (!entry.domain) return null;
  if (entry.scope === 'domain') return <div className="admin-opt-out-scope"><span className="admin-badge admin-badge-warning">widened</span> all of {entry.domain}, by an administrator</div>;
  return <div className="admin-opt-out-scope muted">covers {entry.domain} and its subdomains</div>;
}

/** Opt-out requests (websites wait here for a decision) and the list of what is suppressed now. */
export function OptOutsTab() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  /** The request whose preview is being read before its approval is confirmed. */
  const [previewing, setPreviewing] = useState('');
  const q = useDebounced(search.trim());
  const query: OptOutListQuery = { q, page, page_size: PAGE_SIZE };
  const list = useQuery({ queryKey: optOutKeys.list(query), queryFn: () => fetchOptOuts(query), placeholderData: keepPreviousData });
  const decision = useMutation({
    mutationFn: ({ entry, decision, scope }: { entry: OptOutEntry; decision: OptOutDecision; scope: OptOutScope }) => decideOptOut(entry.id, decision, scope),
    onSuccess: (_, made) => {
      notices.success(DONE[made.decision]);
      return queryClient.invalidateQueries({ queryKey: optOutKeys.all });
    },
    onError: (err) => notices.error(errorDetail(err, 'The request could not be updated')),
  });
  const busyId = previewing || (decision.isPending ? decision.variables.entry.id : '');
  const requests = list.data?.requests ?? [];
  const suppressed = list.data?.suppressed ?? [];

  /** Before an approval the administrator sees what it will blank, and confirms. */
  async function confirmApproval(entry: OptOutEntry, scope: OptOutScope): Promise<boolean> {
    // A phone number alone: nothing to preview, the number is blanked wherever it appears.
    if (!entry.website) {
      return confirm({
        title: `Approve the opt-out of ${entry.phone ?? 'this number'}?`,
        message: 'The number is left out of new searches and blanked in searches and exports made before.',
        confirmLabel: 'Approve',
      });
    }
    setPreviewing(entry.id);
    let preview: OptOutPreview;
    try {
      // Always read afresh: leads are blanked by other approvals and new searches all the time.
      preview = await queryClient.fetchQuery({ queryKey: optOutKeys.preview(entry.id, scope), queryFn: () => previewOptOut(entry.id, scope), staleTime: 0 });
    } catch (err) {
      notices.error(errorDetail(err, 'Could not tell what this approval would blank'));
      return false;
    } finally {
      setPreviewing('');
    }
    return confirm({
      title: scope === 'domain' ? `Widen to all of ${preview.value}?` : `Approve the opt-out of ${preview.value}?`,
      message: previewText(preview),
      confirmLabel: scope === 'domain' ? `Approve all of ${preview.value}` : 'Approve',
      danger: scope === 'domain',
    });
  }

  /** Never rejects (the dialogs only resolve, a failed preview is shown, the mutation puts its failure in the banner): the buttons call it with `void`. */
  async function decide(entry: OptOutEntry, choice: OptOutDecision, scope: OptOutScope = 'host') {
    if (choice === 'lift' && !(await confirm({
      title: 'Lift this suppression?',
      message: 'Its contacts will appear again in new searches and in past searches and exports.',
      confirmLabel: 'Lift',
      danger: true,
    }))) return;
    if (choice === 'approve' && !(await confirmApproval(entry, scope))) return;
    decision.mutate({ entry, decision: choice, scope });
  }

  return (
    <div className="admin-tab-body">
      {confirmDialog}
      <div className="admin-toolbar">
        <div className="field admin-search">
          <label htmlFor="admin-opt-out-search">Search opt-outs</label>
          <input id="admin-opt-out-search" type="search" placeholder="Email, phone, website or reason" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} />
        </div>
      </div>

      <section className="card admin-section" aria-labelledby="admin-opt-outs-heading" aria-busy={list.isFetching}>
        <h2 id="admin-opt-outs-heading">Opt-out requests {list.data && <span className="muted">({whole(list.data.total)})</span>}</h2>
        {list.isError ? <p className="alert alert-error">{errorDetail(list.error, 'Failed to fetch opt-outs')}</p> : null}
        {list.isPending ? <p className="muted">Loading opt-outs...</p> : list.isError && !list.data ? null : requests.length === 0 ? (
          <p className="muted">{q ? 'No opt-outs match this search' : 'No opt-out requests yet'}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table" data-testid="opt-out-requests">
              <thead>
                <tr><th>Received</th><th>Email</th><th>Phone</th><th>Website</th><th>Reason</th><th>Status</th><th>Actions</th></tr>
              </thead>
              <tbody>
                {requests.map((entry) => (
                  <tr key={entry.id}>
                    <td><time dateTime={entry.created_at}>{dateTime(entry.created_at)}</time></td>
                    <td>{entry.email ?? ''}</td>
                    <td>{entry.phone ?? ''}</td>
                    <td>{entry.website ? <>{entry.website}<Coverage entry={entry} /></> : ''}</td>
                    <td>{entry.reason ?? ''}</td>
                    <td><span className={STATUS_BADGE[entry.status]}>{entry.status}</span></td>
                    <td>
                      <div className="admin-actions">
                        {entry.status === 'pending' && (
                          <>
                            <button type="button" className="btn btn-primary btn-sm" disabled={busyId === entry.id} onClick={() => void decide(entry, 'approve')}>Approve</button>
                            {entry.widens_to && (
                              <button type="button" className="btn btn-secondary btn-sm" disabled={busyId === entry.id} onClick={() => void decide(entry, 'approve', 'domain')}>Widen to {entry.widens_to}</button>
                            )}
                            <button type="button" className="btn btn-secondary btn-sm" disabled={busyId === entry.id} onClick={() => void decide(entry, 'reject')}>Reject</button>
                          </>
                        )}
                        {entry.status !== 'lifted' && (
                          <button type="button" className="btn btn-danger-outline btn-sm" disabled={busyId === entry.id} onClick={() => void decide(entry, 'lift')}>Lift</button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} busy={list.isFetching} />
      </section>

      <section className="card admin-section" aria-labelledby="admin-suppressed-heading">
        <h2 id="admin-suppressed-heading">Suppression list {list.data && <span className="muted">({whole(suppressed.length)})</span>}</h2>
        {!list.data ? null : suppressed.length === 0 ? <p className="muted">Nothing is suppressed{q ? ' that matches this search' : ''}</p> : (
          <ul className="admin-suppressed" data-testid="suppression-list">
            {suppressed.map((s) => (
              <li key={`${s.kind}:${s.value}:${s.opt_out_id}`}><span className="admin-badge">{s.kind}</span> <span>{s.value}</span></li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
