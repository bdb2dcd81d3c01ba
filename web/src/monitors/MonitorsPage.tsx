import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { countOf, MAX_LEADS_PER_REQUEST, type LocationMatch, type Monitor, type MonitorFrequency, type MonitorRun } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { LocationField } from '../locations/LocationField';
import { PlaceEstimate } from '../locations/PlaceEstimate';
import { createMonitor, deleteMonitor, fetchRunSearch, listMonitors, listRuns, monitorKeys, runMonitorNow, updateMonitor } from './monitorsApi';
import './monitors.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * `/monitors`: saved searches that run again by themselves and bring only businesses the user never
 * had. `?industry=&location=` fills the form ("Watch this search"); `?run=<search id>` opens a run's
 * leads (the link of the new-leads email).
 */
export function MonitorsPage() {
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: monitorKeys.all, queryFn: listMonitors });
  const openRun = params.get('run');
  const showRun = (searchId: string | null) => setParams((current) => {
    const next = new URLSearchParams(current);
    if (searchId) next.set('run', searchId); else next.delete('run');
    return next;
  });

  return (
    <div className="container page monitors-page">
      <h1>Monitors</h1>
      <p className="muted">
        A monitor runs a search again every day or week and delivers only businesses you have never received from any
        search or run, at 1 credit each. A run with nothing new costs nothing.
      </p>
      <CreateMonitorForm industry={params.get('industry') ?? ''} location={params.get('location') ?? ''} />
      {openRun && <RunLeads searchId={openRun} onClose={() => showRun(null)} />}
      <section className="card" aria-labelledby="monitor-list-heading">
        <h2 id="monitor-list-heading">Your monitors</h2>
        {list.isError && <div className="alert alert-error" role="alert">{errorDetail(list.error, 'Could not load your monitors.')}</div>}
        {list.isPending && <p className="muted">Loading your monitors…</p>}
        {list.data && list.data.length === 0 && <p className="muted">No monitors yet. Create one above, or press “Watch this search” on a finished search.</p>}
        {list.data && list.data.length > 0 && (
          <ul className="monitor-list">
            {list.data.map((monitor) => <MonitorItem key={monitor.id} monitor={monitor} onShowRun={showRun} />)}
          </ul>
        )}
      </section>
    </div>
  );
}

function CreateMonitorForm({ industry: givenIndustry, location: givenLocation }: { industry: string; location: string }) {
  const [industry, setIndustry] = useState(givenIndustry);
  const [location, setLocation] = useState(givenLocation);
  const [place, setPlace] = useState<LocationMatch | null>(null);
  const [maxLeads, setMaxLeads] = useState('10');
  const [frequency, setFrequency] = useState<MonitorFrequency>('daily');
  const [notifyEmail, setNotifyEmail] = useState(true);
  const [invalid, setInvalid] = useState('');
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: createMonitor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorKeys.all }),
  });
  const error = invalid || (create.isError ? errorDetail(create.error, 'Could not create this monitor; please try again.') : '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const max = Number(maxLeads);
    if (!industry.trim() || !location.trim()) return setInvalid('Please fill in both industry and location fields');
    if (!Number.isInteger(max) || max < 1 || max > MAX_LEADS_PER_REQUEST) return setInvalid(`Leads per run must be a whole number from 1 to ${MAX_LEADS_PER_REQUEST}`);
    setInvalid('');
    create.mutate({ industry: industry.trim(), location: location.trim(), max_leads_per_run: max, frequency, notify_email: notifyEmail });
  };

  return (
    <section className="card" aria-labelledby="monitor-create-heading">
      <h2 id="monitor-create-heading">New monitor</h2>
      <form className="monitor-form" onSubmit={submit} aria-label="Create a monitor">
        <div className="field">
          <label htmlFor="monitor-industry">Industry</label>
          <input id="monitor-industry" maxLength={100} value={industry} onChange={(e) => setIndustry(e.target.value)} placeholder="Dentists" />
        </div>
        <div className="field">
          <label htmlFor="monitor-location">Location</label>
          <LocationField
            id="monitor-location"
            value={location}
            chosen={place}
            onChange={(text, chosen) => {
              setLocation(text);
              setPlace(chosen);
            }}
            placeholder="Würzburg"
          />
          <PlaceEstimate chosen={place} industry={industry} />
        </div>
        <div className="field">
          <label htmlFor="monitor-max">Most new leads per run</label>
          <input id="monitor-max" type="number" min={1} max={MAX_LEADS_PER_REQUEST} value={maxLeads} onChange={(e) => setMaxLeads(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="monitor-frequency">Runs</label>
          <select id="monitor-frequency" value={frequency} onChange={(e) => setFrequency(e.target.value as MonitorFrequency)}>
            <option value="daily">Every day</option>
            <option value="weekly">Every week</option>
          </select>
        </div>
        <label className="checkbox monitor-notify">
          <input type="checkbox" checked={notifyEmail} onChange={(e) => setNotifyEmail(e.target.checked)} />
          Email me when a run finds new businesses
        </label>
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        {create.isSuccess && !error && <p className="muted" role="status">Monitor created: it first runs {when(create.data.next_run_at!)}, or now with “Run now”.</p>}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create monitor'}</button>
      </form>
    </section>
  );
}

function runResult(run: MonitorRun): string {
  if (run.status === 'insufficient_credits') return 'Not run: no credits';
  if (run.status === 'running') return 'Running…';
  if (run.status === 'failed') return 'Failed (nothing charged)';
  if (run.status === 'cancelled') return `Cancelled, ${run.new_leads} new`;
  return run.new_leads === 0 ? 'Nothing new (free)' : `${run.new_leads} new, ${run.credits_used} credit${run.credits_used === 1 ? '' : 's'}`;
}

function MonitorItem({ monitor, onShowRun }: { monitor: Monitor; onShowRun(searchId: string): void }) {
  const [confirming, setConfirming] = useState(false);
  const [showRuns, setShowRuns] = useState(false);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: monitorKeys.all });
  const toggle = useMutation({ mutationFn: () => updateMonitor(monitor.id, { status: monitor.status === 'active' ? 'paused' : 'active' }), onSuccess: refresh });
  const run = useMutation({ mutationFn: () => runMonitorNow(monitor.id), onSuccess: (searchId) => { onShowRun(searchId); return refresh(); } });
  const remove = useMutation({ mutationFn: () => deleteMonitor(monitor.id), onSuccess: refresh, onError: () => setConfirming(false) });
  const busy = toggle.isPending || run.isPending || remove.isPending;
  const failure = [toggle, run, remove].find((m) => m.isError);
  const title = `${monitor.industry} in ${monitor.location}`;

  return (
    <li className="monitor-item" data-testid="monitor-item">
      <div className="monitor-item-head">
        <div>
          <strong>{title}</strong> <span className={`badge ${monitor.status === 'active' ? 'badge-success' : 'badge-muted'}`}>{monitor.status === 'active' ? 'Active' : 'Paused'}</span>
          <p className="muted">
            Up to {countOf(monitor.max_leads_per_run, 'new lead')} {monitor.frequency === 'daily' ? 'every day' : 'every week'}
            {monitor.notify_email ? ' · email on new businesses' : ''}
          </p>
          <p className="monitor-facts">
            <span>Next run: {monitor.next_run_at ? when(monitor.next_run_at) : 'paused'}</span>
            <span>
              Last result:{' '}
              {monitor.last_run ? (
                <>
                  {runResult(monitor.last_run)}
                  {monitor.last_run.search_id && (
                    <> · <button type="button" className="link-button" onClick={() => onShowRun(monitor.last_run!.search_id!)}>See its leads</button></>
                  )}
                </>
              ) : 'not run yet'}
            </span>
          </p>
        </div>
        {confirming ? (
          <div className="monitor-confirm" role="group" aria-label={`Delete the monitor ${title}?`}>
            <span>Delete this monitor? Its past runs stay in your search history.</span>
            <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => remove.mutate()}>Delete</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setConfirming(false)}>Keep</button>
          </div>
        ) : (
          <div className="monitor-actions">
            <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => run.mutate()}>{run.isPending ? 'Starting…' : 'Run now'}</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => toggle.mutate()}>{monitor.status === 'active' ? 'Pause' : 'Resume'}</button>
            <button type="button" className="btn btn-secondary btn-sm" aria-expanded={showRuns} onClick={() => setShowRuns((v) => !v)}>{showRuns ? 'Hide runs' : 'Runs'}</button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Delete ${title}`}>Delete</button>
          </div>
        )}
      </div>
      {failure && <div className="alert alert-error" role="alert">{errorDetail(failure.error, 'That did not work; please try again.')}</div>}
      {showRuns && <RunList monitorId={monitor.id} onShowRun={onShowRun} />}
    </li>
  );
}

function RunList({ monitorId, onShowRun }: { monitorId: string; onShowRun(searchId: string): void }) {
  const runs = useQuery({ queryKey: monitorKeys.runs(monitorId), queryFn: () => listRuns(monitorId) });
  if (runs.isPending) return <p className="muted">Loading runs…</p>;
  if (runs.isError) return <div className="alert alert-error" role="alert">{errorDetail(runs.error, 'Could not load the runs.')}</div>;
  if (!runs.data.length) return <p className="muted">No runs yet.</p>;
  return (
    <table className="monitor-runs">
      <thead><tr><th>Started</th><th>How</th><th>Result</th><th>Leads</th></tr></thead>
      <tbody>
        {runs.data.map((run) => (
          <tr key={run.started_at + (run.search_id ?? '')}>
            <td>{when(run.started_at)}</td>
            <td>{run.trigger === 'manual' ? 'Run now' : 'Scheduled'}</td>
            <td>{runResult(run)}</td>
            <td>{run.search_id ? <button type="button" className="link-button" onClick={() => onShowRun(run.search_id!)}>Open</button> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One run's leads, a click from its monitor (or the email's link). */
function RunLeads({ searchId, onClose }: { searchId: string; onClose(): void }) {
  const search = useQuery({
    queryKey: monitorKeys.run(searchId),
    queryFn: () => fetchRunSearch(searchId),
    // A run that is still going is read again until it ends.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 2000 : false),
  });
  // Once the run has ended, its monitor's last result and runs are read again, and the balance it charged.
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  const ended = search.data !== undefined && search.data.status !== 'running';
  useEffect(() => {
    if (!ended) return;
    void queryClient.invalidateQueries({ queryKey: monitorKeys.all });
    void refreshUser();
  }, [ended, searchId, queryClient, refreshUser]);
  return (
    <section className="card monitor-run-leads" aria-labelledby="run-leads-heading">
      <div className="card-head">
        <h2 id="run-leads-heading">{search.data ? `Run of ${search.data.industry} in ${search.data.location}` : 'Run'}</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onClose}>Close</button>
      </div>
      {search.isPending && <p className="muted">Loading the run’s leads…</p>}
      {search.isError && <div className="alert alert-error" role="alert">{errorDetail(search.error, 'Could not load this run.')}</div>}
      {search.data && (
        <>
          <p className="muted" role="status">
            {when(search.data.created_at)} · {search.data.status === 'running' ? 'running…' : `${search.data.leads_count} new business${search.data.leads_count === 1 ? '' : 'es'}, ${search.data.credits_used} credit${search.data.credits_used === 1 ? '' : 's'}`}
            {' · '}<Link to="/dashboard">Search history and exports</Link>
          </p>
          {search.data.leads.length > 0 && (
            <div className="monitor-leads-scroll">
              <table className="monitor-leads">
                <thead><tr><th>Company</th><th>Name</th><th>Email</th><th>Phone</th><th>City</th></tr></thead>
                <tbody>
                  {search.data.leads.map((lead, i) => (
                    <tr key={i}>
                      <td>{lead.company}</td>
                      <td>{lead.name}</td>
                      <td>{lead.email}</td>
                      <td>{lead.phone_display ?? lead.phone}</td>
                      <td>{lead.city}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
