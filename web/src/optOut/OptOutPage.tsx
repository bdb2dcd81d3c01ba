import { useState } from 'react';
import type { OptOutStatus } from '@leadforge/contracts';
import { OptOutForm } from './OptOutForm';
import './optOut.css';

const DONE: Partial<Record<OptOutStatus, string>> = {
  applied: 'Done: your email address or phone number is removed from every search, past and future.',
  pending: 'Thank you. Your email address or phone number (if you gave one) is removed already; an administrator will check the website request shortly.',
};

/** Public: a person asks for their contact details or their website to be left out of the leads. */
export function OptOutPage() {
  const [status, setStatus] = useState<OptOutStatus | null>(null);
  return (
    <div className="opt-out-page">
      <header className="page-hero">
        <div className="container">
          <h1>Opt out of Leadforge</h1>
          <p className="hero-lead">Leadforge finds business contact details on public maps listings and websites. If yours are among them and you would rather they were not, tell us here.</p>
        </div>
      </header>
      <div className="container opt-out-layout">
        <section className="card opt-out-card" aria-labelledby="opt-out-title">
          <h2 id="opt-out-title">Remove my details</h2>
          {status ? (
            <div className="alert alert-success" role="status">
              <p>{DONE[status] ?? 'Your request has been recorded.'}</p>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setStatus(null)}>Send another request</button>
            </div>
          ) : (
            <OptOutForm onDone={setStatus} />
          )}
          <ul className="opt-out-policy muted">
            <li>An exact email address or phone number is removed at once.</li>
            <li>A whole website or domain is removed once an administrator has checked the request.</li>
            <li>What is removed never appears in new searches and is blanked in searches and exports made before.</li>
          </ul>
        </section>
      </div>
    </div>
  );
}
