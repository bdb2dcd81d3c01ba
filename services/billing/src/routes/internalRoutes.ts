import { Type } from 'typebox';
import type { App } from '@leadforge/kit/service';
import { internalGuard } from '@leadforge/kit/http';
import {
  AdjustCreditsRequest, AdjustCreditsResponse, BalanceResponse, ErrorBody, InternalPurchase, RefundRequest, RefundResponse,
  ReservationResponse, ReserveRequest, SettleRequest, type InternalPurchase as InternalPurchaseView,
} from '@leadforge/contracts';
import { adjustCredits } from '../domain/adjustments.ts';
import { dollars, refundableUntil, type PurchaseRow } from '../domain/purchases.ts';
import { releaseReservation, reserveCredits, settleReservation } from '../domain/reservations.ts';
import type { BillingRuntime } from '../runtime.ts';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const IdParams = (what: string) => Type.Object({ id: Type.String({ pattern: UUID_PATTERN, errorMessage: `${what} id must be a UUID` }) });
const UserParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });
const errors = { 400: ErrorBody, 402: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody, 503: ErrorBody };

const purchaseView = (p: PurchaseRow): InternalPurchaseView => ({
  id: p.id,
  user_id: p.user_id,
  plan_id: p.plan_id,
  amount: dollars(p.amount_cents),
  credits: p.credits,
  status: p.status,
  provider_mode: p.provider_mode,
  created_at: new Date(p.created_at).toISOString(),
  completed_at: p.completed_at ? new Date(p.completed_at).toISOString() : null,
  refundable_until: refundableUntil(p)?.toISOString() ?? null,
});

/** Calls other services make (service token; never routed by the gateway). Each money call is idempotent. */
export async function internalRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const { db } = rt.ctx;
  const preHandler = internalGuard(rt.ctx.config.internalToken);

  app.get('/internal/balances/:userId', { schema: { params: UserParams, response: { 200: BalanceResponse, ...errors } }, preHandler }, async (request) => {
    const { userId } = request.params;
    return { user_id: userId, balance: await rt.balanceForDisplay(userId) };
  });

  app.post('/internal/reservations', { schema: { body: ReserveRequest, response: { 200: ReservationResponse, 201: ReservationResponse, ...errors } }, preHandler }, async (request, reply) => {
    const { reservation, created } = await reserveCredits(db, request.body);
    return reply.status(created ? 201 : 200).send(reservation);
  });

  app.post('/internal/reservations/:id/settle', {
    schema: { params: IdParams('reservation'), body: SettleRequest, response: { 200: ReservationResponse, ...errors } },
    preHandler,
  }, async (request) => settleReservation(db, request.params.id, request.body.charge));

  app.post('/internal/reservations/:id/release', {
    schema: { params: IdParams('reservation'), response: { 200: ReservationResponse, ...errors } },
    preHandler,
  }, async (request) => releaseReservation(db, request.params.id));

  app.post('/internal/credits/adjust', { schema: { body: AdjustCreditsRequest, response: { 200: AdjustCreditsResponse, ...errors } }, preHandler }, async (request) => {
    const result = await adjustCredits(db, request.body);
    rt.ctx.log.info({ ...result, actor: request.body.actor_id }, 'credits adjusted by an administrator');
    return result;
  });

  app.post('/internal/purchases/:id/refund', {
    schema: { params: IdParams('purchase'), body: RefundRequest, response: { 200: RefundResponse, ...errors } },
    preHandler,
  }, async (request) => {
    const { actor_id, reason } = request.body;
    return rt.checkout.refund(request.params.id, actor_id, reason);
  });

  app.get('/internal/users/:userId/purchases', {
    schema: { params: UserParams, response: { 200: Type.Object({ purchases: Type.Array(InternalPurchase) }), ...errors } },
    preHandler,
  }, async (request) => {
    const rows: PurchaseRow[] = await db('purchases').where({ user_id: request.params.userId })
      .orderBy('created_at', 'desc').limit(100);
    return { purchases: rows.map(purchaseView) };
  });
}
