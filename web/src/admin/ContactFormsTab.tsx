import { useState } from 'react';
import { errorDetail } from '../api/client';
import { fetchEnhancedStats } from './adminApi';
import { dateTime, whole } from './format';
import { Pager } from './Pager';
import { useRemoteData } from './useRemoteData';

const PAGE_SIZE = 20;

export function ContactFormsTab({ version }: { version: number }) {
  const [page, setPage] = useState(1);
  const contacts = useRemoteData(
    () => fetchEnhancedStats({ include: ['contact_submissions'], contacts_page: page, contacts_page_size: PAGE_SIZE }),
    JSON.stringify([page, version]),
  );
  const list = contacts.data?.contact_submissions ?? [];
  const total = contacts.data?.contact_submissions_page?.total ?? 0;
  return (
    <div className="admin-tab-body">
      <section className="card admin-section" aria-labelledby="admin-contacts-heading" aria-busy={contacts.loading}>
        <h2 id="admin-contacts-heading">Contact Form Submissions {contacts.data && <span className="muted">({whole(total)})</span>}</h2>
        {contacts.failure ? <p className="alert alert-error">{errorDetail(contacts.failure, 'Failed to fetch admin data')}</p> : null}
        {!contacts.data && contacts.loading ? <p className="muted">Loading submissions...</p> : list.length === 0 ? (
          <p className="muted">No contact form submissions yet</p>
        ) : (
          <ul className="admin-contacts" data-testid="contact-list">
            {list.map((c) => (
              <li key={c.id} className="admin-contact">
                <div className="admin-contact-head">
                  <strong>{c.name}</strong>
                  <time dateTime={c.submitted_at} className="muted">{dateTime(c.submitted_at)}</time>
                </div>
                <a href={`mailto:${c.email}`}>{c.email}</a>
                <p>{c.message}</p>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} busy={contacts.loading} />
      </section>
    </div>
  );
}
