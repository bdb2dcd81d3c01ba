import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorDetail } from '../api/client';
import { adminKeys, fetchEnhancedStats, type StatsQuery } from './adminApi';
import { dateTime, whole } from './format';
import { Pager } from './Pager';

const PAGE_SIZE = 20;

export function ContactFormsTab() {
  const [page, setPage] = useState(1);
  const query: StatsQuery = { include: ['contact_submissions'], contacts_page: page, contacts_page_size: PAGE_SIZE };
  const contacts = useQuery({ queryKey: adminKeys.stats(query), queryFn: () => fetchEnhancedStats(query), placeholderData: keepPreviousData });
  const list = contacts.data?.contact_submissions ?? [];
  const total = contacts.data?.contact_submissions_page?.total ?? 0;
  return (
    <div className="admin-tab-body">
      <section className="card admin-section" aria-labelledby="admin-contacts-heading" aria-busy={contacts.isFetching}>
        <h2 id="admin-contacts-heading">Contact Form Submissions {contacts.data && <span className="muted">({whole(total)})</span>}</h2>
        {contacts.isError ? <p className="alert alert-error">{errorDetail(contacts.error, 'Failed to fetch admin data')}</p> : null}
        {contacts.isPending ? <p className="muted">Loading submissions...</p> : contacts.isError && !contacts.data ? null : list.length === 0 ? (
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
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} busy={contacts.isFetching} />
      </section>
    </div>
  );
}
