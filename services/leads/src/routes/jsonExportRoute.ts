import { Readable, pipeline, PassThrough } from 'node:stream';
import type { App } from '@leadforge/kit/service';
import type { Db } from '@leadforge/kit/db';
import { notFound, principalOf } from '@leadforge/kit/http';
import { exportedLeadNumbers, LeadSearchId, LeadsExportQuery, leadsExportFileName } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { eachLeadRow } from '../domain/eachLeadRow.ts';
import { toLead } from '../domain/leadRows.ts';
import { findOwnSearch, statsOf, toSummary, type SearchRow } from '../domain/searchRecord.ts';

/** `{"search":{...},"leads":[...]}` written a lead at a time, so memory stays flat at any size. */
async function* jsonChunks(db: Db, search: SearchRow, positions: number[] | undefined): AsyncGenerator<string> {
  yield `{"search":${JSON.stringify({ ...toSummary(search), stats: statsOf(search), coverage: search.coverage ?? null })},"leads":[`;
  let first = true;
  for await (const row of eachLeadRow(db, search.id, positions)) {
    yield `${first ? '' : ','}${JSON.stringify(toLead(row))}`;
    first = false;
  }
  yield ']}';
}

/** GET /api/lead-searches/:id/export.json — the search (`LeadsJsonExport`), streamed; free, as often as wanted. */
export async function jsonExportRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  app.get('/api/lead-searches/:id/export.json', {
    schema: { params: LeadSearchId, querystring: LeadsExportQuery },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const search = await findOwnSearch(db, principalOf(request).id, (request.params as { id: string }).id);
    if (!search) throw notFound('Search not found');
    const fileName = leadsExportFileName(search.industry, search.location, search.created_at, 'json');
    const body = pipeline(Readable.from(jsonChunks(db, search, exportedLeadNumbers((request.query as LeadsExportQuery).leads))), new PassThrough(), (err) => {
      if (err) request.log.warn({ err, searchId: search.id }, 'JSON export ended early');
    });
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(body);
  });
}
