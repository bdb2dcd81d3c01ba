import type { App } from '@leadforge/kit/service';
import { internalGuard } from '@leadforge/kit/http';
import { ACCOUNT_DATA_EXPORT_PATH, AccountDataRequest, AccountDataResponse, ErrorBody } from '@leadforge/contracts';
import { accountData } from '../domain/accountData.ts';
import type { BillingRuntime } from '../runtime.ts';

/** Billing's part of a user's data export (auth's `GET /api/account/export` gathers the parts). */
export async function accountDataRoutes(app: App, rt: BillingRuntime): Promise<void> {
  app.post(ACCOUNT_DATA_EXPORT_PATH, {
    schema: { body: AccountDataRequest, response: { 200: AccountDataResponse, 403: ErrorBody } },
    preHandler: internalGuard(rt.ctx.config.internalToken),
  }, async (request) => ({
    ...(await accountData(rt.ctx.db, request.body.user_id)),
    emails_sent: await rt.mail.sentTo(rt.ctx.db, { userId: request.body.user_id }),
  }));
}
