import type { App } from '@leadforge/kit/service';
import {
  AdminOptOutList, AdminOptOutQuery, ErrorBody, OptOutApproval, OptOutEntry, OptOutId, OptOutPreview, OptOutPreviewQuery,
} from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { decideOptOut, listOptOuts, previewOptOut } from '../domain/optOuts.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** The administrators' side of opt-outs: the list, what approving a website would blank, decisions on websites, and lifting a suppression. */
export async function adminOptOutRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;

  app.get('/api/admin/opt-outs', {
    schema: { querystring: AdminOptOutQuery, response: { 200: AdminOptOutList, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => listOptOuts(db, request.query as AdminOptOutQuery));

  app.get('/api/admin/opt-outs/:id/preview', {
    schema: { params: OptOutId, querystring: OptOutPreviewQuery, response: { 200: OptOutPreview, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => previewOptOut(db, (request.params as { id: string }).id, (request.query as OptOutPreviewQuery).scope));

  app.post('/api/admin/opt-outs/:id/approve', {
    schema: { params: OptOutId, body: OptOutApproval, response: { 200: OptOutEntry, ...errors } },
    // No body is an approval of the host asked for, as before scopes existed.
    preValidation: async (request) => { request.body ??= {}; },
    preHandler: app.requireAdmin,
  }, async (request) => decideOptOut(db, (request.params as { id: string }).id, 'approve', (request.body as OptOutApproval | undefined)?.scope));

  app.post('/api/admin/opt-outs/:id/reject', {
    schema: { params: OptOutId, response: { 200: OptOutEntry, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => decideOptOut(db, (request.params as { id: string }).id, 'reject'));

  app.delete('/api/admin/opt-outs/:id', {
    schema: { params: OptOutId, response: { 200: OptOutEntry, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => decideOptOut(db, (request.params as { id: string }).id, 'lift'));
}
