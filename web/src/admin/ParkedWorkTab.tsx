import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PARKED_KINDS, SERVICES, type AdminParkedWorkItem, type ParkedKind, type ParkedWorkQuery, type ServiceName } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { adminKeys, fetchParkedWork, replayParkedWork } from './adminApi';
import { age, dateTime, whole } from './format';
import { useNotices } from './notices';
import { Pager } from './Pager';
import { useConfirm } from './useConfirm';

const PAGE_SIZE = 25;

const KIND_LABEL: Record<ParkedKind, string> = { queue: 'Queue', outbox: 'Outbox', dead_letters: 'Dead letter' };
const KIND_BADGE: Record<ParkedKind, string> = { queue: 'admin-badge admin-badge-warning', outbox: 'admin-badge admin-badge-danger', dead_letters: 'admin-badge admin-badge-danger' };

/** What a replay of this piece does, in words, for its confirmation. */
function replayEffect(item: AdminParkedWorkItem): string {
  switch (item.kind) {
    case 'queue': return `The ${item.name} job ${item.key} of the ${item.service} service becomes due again with its attempts reset; its workers pick it up at once.`;
    case 'outbox': return `Event ${item.key} (${item.what}) of the ${item.service} service becomes publishable again; its relay sends it to the bus.`;
    case 'dead_letters': return `Event ${item.key} (${item.what}) goes back on its topic through the ${item.service} outbox; the group that parked it handles it again.`;
  }
}

/**
 * The work every service gave up on (its queues' parked jobs, its outbox's parked events, its
 * consumers' dead letters), with why, and a replay of each once its cause is fixed.
 */
export function ParkedWorkTab() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const [service, setService] = useState<ServiceName | ''>('');
  const [kind, setKind] = useState<ParkedKind | ''>('');
  const [page, setPage] = useState(1);
  const query: ParkedWorkQuery = { ...(service ? { service } : {}), ...(kind ? { kind } : {}), page, page_size: PAGE_SIZE };
  const list = useQuery({ queryKey: adminKeys.parkedWork(query), queryFn: () => fetchParkedWork(query), placeholderData: keepPreviousData });
  const replay = useMutation({
    mutationFn: (item: AdminParkedWorkItem) => replayParkedWork({ service: item.service, kind: item.kind, ...(item.kind === 'queue' ? { queue: item.name } : {}), keys: [item.key] }),
    onSuccess: (answer) => {
      notices.success(answer.message);
      return queryClient.invalidateQueries({ queryKey: adminKeys.parkedWorkAll });
    },
    onError: (err) => notices.error(errorDetail(err, 'The work could not be replayed')),
  });
  const items = list.data?.items ?? [];
  const silent = (list.data?.services ?? []).filter((entry) => entry.error);
  const parkedIn = (list.data?.services ?? []).filter((entry) => entry.total > 0);
  const busyKey = replay.isPending ? `${replay.variables.service}/${replay.variables.kind}/${replay.variables.key}` : '';
  const filtered = Boolean(service || kind);

  async function askReplay(item: AdminParkedWorkItem) {
    if (!(await confirm({ title: `Replay this ${KIND_LABEL[item.kind].toLowerCase()}?`, message: replayEffect(item), confirmLabel: 'Replay' }))) return;
    replay.mutate(item);
  }

  return (
    <div className="admin-tab-body">
      {confirmDialog}
      <section className="card admin-section" aria-labelledby="admin-parked-heading" aria-busy={list.isFetching}>
        <div className="admin-section-head">
          <h2 id="admin-parked-heading">Parked work {list.data && <span className="muted">({whole(list.data.total)})</span>}</h2>
          <div className="admin-toolbar">
            <div className="field admin-inline-field">
              <label htmlFor="admin-parked-service">Service</label>
              <select id="admin-parked-service" value={service} onChange={(e) => { setService(SERVICES.find((name) => name === e.target.value) ?? ''); setPage(1); }}>
                <option value="">All services</option>
                {SERVICES.map((name) => <option key={name} value={name}>{name}</option>)}
              </select>
            </div>
            <div className="field admin-inline-field">
              <label htmlFor="admin-parked-kind">Kind</label>
              <select id="admin-parked-kind" value={kind} onChange={(e) => { setKind(PARKED_KINDS.find((k) => k === e.target.value) ?? ''); setPage(1); }}>
                <option value="">All kinds</option>
                {PARKED_KINDS.map((k) => <option key={k} value={k}>{KIND_LABEL[k]}</option>)}
              </select>
            </div>
            <button type="button" className="btn btn-secondary btn-sm" disabled={list.isFetching} onClick={() => void list.refetch()}>{list.isFetching ? 'Refreshing...' : 'Refresh'}</button>
          </div>
        </div>
        <p className="muted">
          Work a service gave up on after its retries: a queue&apos;s job, an event its outbox could not publish, an event a consumer could not handle.
          Replay it once its cause is fixed; the service that owns it runs it again.
        </p>
        {parkedIn.length > 0 && (
          <ul className="admin-parked-summary" aria-label="Parked work by service">
            {parkedIn.map((entry) => (
              <li key={entry.service}>
                <strong>{entry.service}</strong> {whole(entry.total)}
                <span className="muted">{PARKED_KINDS.filter((k) => entry[k] > 0).map((k) => ` · ${KIND_LABEL[k].toLowerCase()} ${whole(entry[k])}`).join('')}</span>
              </li>
            ))}
          </ul>
        )}
        {silent.length > 0 && (
          <div className="alert alert-warning" role="status">
            Not shown: {silent.map((entry) => `${entry.service} (${entry.error})`).join('; ')}
          </div>
        )}
        {list.isError ? (
          <div className="alert alert-error" role="alert">
            {errorDetail(list.error, 'Failed to fetch the parked work')}{' '}
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void list.refetch()} disabled={list.isFetching}>Try again</button>
          </div>
        ) : null}
        {list.isPending ? <p className="muted" role="status">Loading parked work...</p> : list.isError && !list.data ? null : items.length === 0 ? (
          <p className="muted">{filtered ? 'Nothing parked matches these filters' : 'Nothing is parked: every queue, outbox and consumer is keeping up'}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-table-cards admin-parked-table" data-testid="parked-work">
              <thead>
                <tr><th>Service</th><th>Kind</th><th>Name</th><th>Key</th><th>Attempts</th><th>Parked</th><th>Last error</th><th>Actions</th></tr>
              </thead>
              <tbody>
                {items.map((item) => {
                  const id = `${item.service}/${item.kind}/${item.key}`;
                  return (
                    <tr key={id}>
                      <td><strong>{item.service}</strong></td>
                      <td data-label="Kind"><span className={KIND_BADGE[item.kind]}>{KIND_LABEL[item.kind]}</span></td>
                      <td data-label="Name" className="admin-break">{item.kind === 'queue' ? item.name : item.what}</td>
                      <td data-label="Key"><code className="admin-parked-key" title={item.key}>{item.key}</code></td>
                      <td data-label="Attempts">{item.attempts ?? '–'}</td>
                      <td data-label="Parked">{item.parked_at ? <time dateTime={item.parked_at} title={dateTime(item.parked_at)}>{age(item.parked_at)}</time> : '–'}</td>
                      <td data-label="Last error" className="admin-parked-error" title={item.error ?? undefined}>{item.error?.split('\n')[0] ?? <span className="muted">none recorded</span>}</td>
                      <td>
                        {item.replayable ? (
                          <button type="button" className="btn btn-primary btn-sm" disabled={busyKey === id} onClick={() => void askReplay(item)}>
                            {busyKey === id ? 'Replaying...' : 'Replay'}
                          </button>
                        ) : <span className="muted" title="This queue keeps its parked jobs to be read; they are never run again">Final</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} busy={list.isFetching} />
      </section>
    </div>
  );
}
