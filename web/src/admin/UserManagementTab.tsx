import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminUser } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { adminKeys, fetchEnhancedStats, userAction, type StatsQuery, type UserAction } from './adminApi';
import { date, whole } from './format';
import { useNotices } from './notices';
import { Pager } from './Pager';
import { RoleBadge } from './RoleBadge';
import { useConfirm } from './useConfirm';
import { useDebounced } from './useDebounced';

const PAGE_SIZE = 25;
const QUICK_CREDITS = 10;

type RoleFilter = 'all' | 'user' | 'admin';

export function UserManagementTab({ currentUserId, onChanged }: { currentUserId: string; onChanged(): void }) {
  const notices = useNotices();
  const [confirm, confirmDialog] = useConfirm();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<RoleFilter>('all');
  const [page, setPage] = useState(1);
  const searched = useDebounced(search.trim());

  const query: StatsQuery = { include: ['users'], search: searched, role, users_page: page, users_page_size: PAGE_SIZE };
  const users = useQuery({ queryKey: adminKeys.stats(query), queryFn: () => fetchEnhancedStats(query), placeholderData: keepPreviousData });
  const list = users.data?.users ?? [];
  const total = users.data?.users_page?.total ?? 0;

  const change = useMutation({
    mutationFn: ({ user, action }: { user: AdminUser; action: UserAction | number }) => userAction(user.id, action),
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      notices.success(answer.message);
      onChanged();
    },
    onError: (err, { action }) => notices.error(errorDetail(err, typeof action === 'number' ? 'Failed to update credits' : 'Failed to perform action')),
  });
  /** The row and action whose request is in flight, for the buttons' labels. */
  const pending = change.isPending ? change.variables : undefined;

  /** Never rejects (the dialog only resolves, the mutation puts its failure in the banner): the buttons call it with `void`. */
  async function act(user: AdminUser, action: UserAction | number) {
    if (action === 'deactivate') {
      const ok = await confirm({
        title: 'Deactivate this user?',
        message: `${user.name} (${user.email}) will be signed out and unable to log in until reactivated.`,
        confirmLabel: 'Deactivate',
        danger: true,
      });
      if (!ok) return;
    }
    change.mutate({ user, action });
  }

  const changeSearch = (value: string) => { setSearch(value); setPage(1); };
  const changeRole = (value: RoleFilter) => { setRole(value); setPage(1); };

  return (
    <div className="admin-tab-body">
      {confirmDialog}
      <div className="admin-toolbar">
        <div className="field admin-search">
          <label htmlFor="admin-user-search">Search users</label>
          <input id="admin-user-search" type="search" placeholder="Name or email" value={search} onChange={(e) => changeSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="admin-role-filter">Role</label>
          <select id="admin-role-filter" value={role} onChange={(e) => changeRole(e.target.value as RoleFilter)}>
            <option value="all">All Roles</option>
            <option value="user">Users</option>
            <option value="admin">Admins</option>
          </select>
        </div>
      </div>

      <section className="card admin-section" aria-labelledby="admin-users-heading" aria-busy={users.isFetching}>
        <h2 id="admin-users-heading">Users ({whole(total)})</h2>
        {users.isError && !users.isFetching ? <p className="alert alert-error">{errorDetail(users.error, 'Failed to fetch admin data')}</p> : null}
        {users.isPending ? <p className="muted">Loading users...</p> : users.isError && !users.data ? null : list.length === 0 ? (
          <p className="muted">{searched || role !== 'all' ? 'No users match this search' : 'No users yet'}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-table-cards">
              <thead>
                <tr><th scope="col">User Info</th><th scope="col">Role</th><th scope="col">Credits</th><th scope="col">Joined</th><th scope="col">Actions</th></tr>
              </thead>
              <tbody>
                {list.map((user) => {
                  const self = user.id === currentUserId;
                  const rowBusy = pending?.user.id === user.id;
                  return (
                    <tr key={user.id} data-testid={`user-row-${user.email}`}>
                      <td>
                        <div className="admin-user-info">
                          <strong><Link to={`/admin?tab=users&user=${encodeURIComponent(user.id)}`}>{user.name}</Link>{self ? ' (you)' : ''}</strong>
                          <span className="muted admin-break">{user.email}</span>
                          {user.status === 'inactive' && <span className="admin-badge admin-badge-danger">Inactive</span>}
                        </div>
                      </td>
                      <td data-label="Role"><RoleBadge role={user.role} /></td>
                      <td data-label="Credits" className="admin-num">{whole(user.credits)}</td>
                      <td data-label="Joined">{date(user.created_at)}</td>
                      <td data-label="Actions">
                        <div className="admin-actions">
                          <button type="button" className="btn btn-secondary btn-sm" disabled={rowBusy} onClick={() => void act(user, QUICK_CREDITS)} title="Add 10 credits">
                            {rowBusy && pending?.action === QUICK_CREDITS ? '...' : '+10'}
                          </button>
                          <button type="button" className="btn btn-secondary btn-sm" disabled={rowBusy || user.credits < QUICK_CREDITS} onClick={() => void act(user, -QUICK_CREDITS)} title="Remove 10 credits">
                            {rowBusy && pending?.action === -QUICK_CREDITS ? '...' : '-10'}
                          </button>
                          {user.role === 'admin' ? (
                            <button type="button" className="btn btn-secondary btn-sm" disabled={rowBusy || self} onClick={() => void act(user, 'demote')} title={self ? 'You cannot demote your own account' : 'Make a regular user'}>
                              {rowBusy && pending?.action === 'demote' ? 'Demoting...' : 'Demote'}
                            </button>
                          ) : (
                            <button type="button" className="btn btn-secondary btn-sm" disabled={rowBusy} onClick={() => void act(user, 'promote')} title="Make an admin">
                              {rowBusy && pending?.action === 'promote' ? 'Promoting...' : 'Promote'}
                            </button>
                          )}
                          {user.status === 'inactive' ? (
                            <button type="button" className="btn btn-secondary btn-sm" disabled={rowBusy} onClick={() => void act(user, 'activate')}>
                              {rowBusy && pending?.action === 'activate' ? 'Activating...' : 'Activate'}
                            </button>
                          ) : (
                            <button type="button" className="btn btn-danger-outline btn-sm" disabled={rowBusy || self} onClick={() => void act(user, 'deactivate')} title={self ? 'You cannot deactivate your own account' : 'Deactivate this account'}>
                              {rowBusy && pending?.action === 'deactivate' ? 'Deactivating...' : 'Deactivate'}
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} busy={users.isFetching} />
      </section>
    </div>
  );
}
