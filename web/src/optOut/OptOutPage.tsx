import { useState } from 'react';
import { OptOutForm } from './OptOutForm';
import './optOut.css';

/** Public: a person asks for their contact details or their website to be left out of the leads. */
export function OptOutPage() {
  const [received, setReceived] = useState<string | null>(null);
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
          {received ? (
            <div className="alert alert-success" role="status">
              <p>{received}</p>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setReceived(null)}>Send another request</button>
            </div>
          ) : (
            <OptOutForm onDone={setReceived} />
          )}
          <ul className="opt-out-policy muted">
            <li>An email address is removed once you open the link we mail to it: nobody can remove someone else's address.</li>
            <li>A phone number or a website is removed once an administrator has checked the request.</li>
            <li>What is removed never appears in new searches and is blanked in searches and exports made before.</li>
          </ul>
        </section>
      </div>
    </div>
  );
}
