import type { ContactSubmission, PageInfo } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { iso, num } from './sqlValues.ts';

/** One page of contact form submissions, newest first. */
export async function listContactSubmissions(db: Db, page: number, pageSize: number): Promise<{ submissions: ContactSubmission[]; page: PageInfo }> {
  const [[{ total }], rows] = await Promise.all([
    db('rm_contact_submissions').count({ total: '*' }),
    db('rm_contact_submissions')
      .select('submission_id', 'name', 'email', 'message', 'submitted_at')
      .orderBy([{ column: 'submitted_at', order: 'desc' }, { column: 'submission_id', order: 'desc' }])
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  return {
    submissions: rows.map((r) => ({ id: r.submission_id, name: r.name, email: r.email, message: r.message, submitted_at: iso(r.submitted_at) })),
    page: { page, page_size: pageSize, total: num(total) },
  };
}
