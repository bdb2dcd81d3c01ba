import type { App } from '@leadforge/kit/service';
import { internalGuard } from '@leadforge/kit/http';
import { ACCOUNT_DATA_EXPORT_PATH, AccountDataRequest, AccountDataResponse, ErrorBody } from '@leadforge/contracts';
import { messagesFrom } from '../domain/accountData.ts';
import type { ContactRuntime } from '../runtime.ts';

/** Contact's part of a user's data export: messages sent from their address. */
export async function accountDataRoutes(app: App, rt: ContactRuntime): Promise<void> {
  app.post(ACCOUNT_DATA_EXPORT_PATH, {
    schema: { body: AccountDataRequest, response: { 200: AccountDataResponse, 403: ErrorBody } },
    preHandler: internalGuard(rt.ctx.config.internalToken),
  }, async (request) => messagesFrom(rt.ctx.db, request.body.email));
}
