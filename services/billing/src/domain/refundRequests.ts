import crypto from 'node:crypto';
import type { ServiceContext } from '@leadforge/kit/service';
import type { Db } from '@leadforge/kit/db';
import type { Principal } from '@leadforge/kit/http';
import { badRequest, conflict, notFound } from '@leadforge/kit/http';
import { emitEvent } from '@leadforge/kit/events';
import {
  REFUND_WINDOW_DAYS,
  type AdminRefundRequest, type ApproveRefundBody, type PaymentMode, type RefundRequestStatus, type RefundRequestView, type RequestRefundResponse,
} from '@leadforge/contracts';
import { purchasesTotal } from '../metrics.ts';
import type { PaymentProviders } from '../payments/paymentProviders.ts';
import { ProviderRefused, ProviderUnavailable } from '../payments/paymentProvider.ts';
import { appendEntry, inTransaction, lockBalance, type Trx } from './ledger.ts';
import { dollars, refundableUntil, type PurchaseRow } from './purchases.ts';

export interface RefundRequestRow {
  id: string;
  purchase_id: string;
  user_id: string;
  user_email: string | null;
  user_name: string | null;
  reason: string | null;
  status: RefundRequestStatus;
  instant: boolean;
  amount_cents: number | null;
  credits_reversed: number | null;
  credits_shortfall: number | null;
  decided_by: string | null;
  decision_reason: string | null;
  refund_id: string | null;
  last_error: string | null;
  refused_by_provider: boolean;
  requested_at: Date;
  decided_at: Date | null;
  refunded_at: Date | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const refundRequestView = (r: RefundRequestRow): RefundRequestView => ({
  id: r.id,
  purchase_id: r.purchase_id,
  status: r.status,
  instant: r.instant,
  reason: r.reason,
  requested_at: iso(r.requested_at)!,
  decided_at: iso(r.decided_at),
  amount_refunded: r.amount_cents === null ? null : dollars(r.amount_cents),
  credits_reversed: r.credits_reversed,
  decision_reason: r.decision_reason,
});

const MODE_LABEL: Record<PaymentMode, string> = { sandbox: 'PayPal (sandbox)', live: 'PayPal', test: 'the test checkout (no money moved)' };
const credits = (n: number) => `${n.toLocaleString('en-US')} credit${n === 1 ? '' : 's'}`;
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The pack's share of credits for a partial refund (all of them for a full one). */
export const creditsDueFor = (p: Pick<PurchaseRow, 'credits' | 'amount_cents'>, amountCents: number) =>
  amountCents >= p.amount_cents ? p.credits : Math.round((p.credits * amountCents) / p.amount_cents);

async function lockPurchase(trx: Trx, purchaseId: string): Promise<PurchaseRow | undefined> {
  return trx('purchases').where({ id: purchaseId }).forUpdate().first();
}

/**
 * Takes the refund's credits back (never below zero: only what the balance holds) and fixes the
 * amount, before the provider is asked: a search reserving at the same moment sees the balance
 * without them, and the webhook that follows finds the amounts already decided.
 */
async function startRefund(trx: Trx, p: PurchaseRow, request: RefundRequestRow, amountCents: number, decision: { actorId?: string; reason?: string; instant: boolean }) {
  const due = creditsDueFor(p, amountCents);
  const taken = Math.min(due, await lockBalance(trx, p.user_id!));
  if (taken > 0) {
    await appendEntry(trx, { userId: p.user_id!, delta: -taken, reason: 'refund', ref: `purchase:${p.id}`, key: `refund:${p.id}`, actorId: decision.actorId, note: decision.reason ?? request.reason ?? undefined });
  }
  const [started]: RefundRequestRow[] = await trx('refund_requests').where({ id: request.id }).update({
    status: 'processing',
    instant: decision.instant,
    amount_cents: amountCents,
    credits_reversed: taken,
    credits_shortfall: due - taken,
    decided_by: decision.actorId ?? null,
    decision_reason: decision.reason ?? null,
    decided_at: trx.fn.now(),
  }).returning('*');
  return started;
}

/**
 * Records a started refund as done, once, under the purchase row lock: the purchase is refunded
 * with the request's amounts and `purchase.refunded` announced (affiliate takes its commission back,
 * auth mails the refund receipt). The approval and PayPal's webhook both end here; the second finds it done.
 */
export async function finishRefund(trx: Trx, purchaseId: string, refundId: string | null): Promise<{ request: RefundRequestRow; finishedNow: boolean } | undefined> {
  const p = await lockPurchase(trx, purchaseId);
  const request: RefundRequestRow | undefined = await trx('refund_requests').where({ purchase_id: purchaseId }).forUpdate().first();
  if (!p || !request || (request.status !== 'processing' && request.status !== 'refunded')) return undefined;
  if (request.status === 'refunded') return { request, finishedNow: false };
  const [refunded]: PurchaseRow[] = await trx('purchases').where({ id: p.id }).update({
    status: 'refunded',
    refunded_at: trx.fn.now(),
    refund_id: refundId,
    refunded_cents: request.amount_cents,
    credits_reversed: request.credits_reversed,
    credits_shortfall: request.credits_shortfall,
    refunded_by: request.decided_by,
    refund_reason: request.decision_reason ?? request.reason,
  }).returning('*');
  const [done]: RefundRequestRow[] = await trx('refund_requests').where({ id: request.id })
    .update({ status: 'refunded', refund_id: refundId, refunded_at: refunded.refunded_at, last_error: null, refused_by_provider: false }).returning('*');
  await emitEvent(trx, 'purchase.refunded', p.user_id!, {
    purchase_id: p.id,
    user_id: p.user_id!,
    amount: dollars(request.amount_cents!),
    credits_reversed: request.credits_reversed!,
    refunded_at: new Date(refunded.refunded_at!).toISOString(),
  });
  trx.executionPromise.then(() => purchasesTotal.inc({ kind: p.kind, outcome: request.amount_cents === p.amount_cents ? 'refunded' : 'partially_refunded' }), () => undefined);
  return { request: done, finishedNow: true };
}

/**
 * The 7-day refund as buyers ask for it and administrators decide it. A request whose pack is
 * wholly unspent is refunded at once; any other waits in the admin panel's Refunds queue.
 */
export class RefundRequests {
  private readonly db: Db;
  private readonly log: ServiceContext['log'];

  constructor(ctx: ServiceContext, private readonly providers: PaymentProviders) {
    this.db = ctx.db;
    this.log = ctx.log;
  }

  async request(user: Principal, purchaseId: string, reason: string): Promise<RequestRefundResponse> {
    const opened = await inTransaction(this.db, async (trx) => {
      const p = await lockPurchase(trx, purchaseId);
      if (!p || p.user_id !== user.id) throw notFound('Purchase not found', 'purchase_not_found');
      if (await trx('refund_requests').where({ purchase_id: p.id }).first()) {
        throw conflict('A refund was already requested for this purchase; its status is shown under Purchase history', 'refund_already_requested');
      }
      if (p.status === 'refunded') throw conflict('This purchase was already refunded: nothing is left to refund', 'nothing_to_refund');
      if (p.status !== 'completed') throw conflict(`Only completed purchases can be refunded; this one is ${p.status}`, 'purchase_not_completed');
      const until = refundableUntil(p)!;
      if (Date.now() > until.getTime()) {
        throw badRequest(`Refunds can be requested within ${REFUND_WINDOW_DAYS} days of purchase; this one was completed on ${new Date(p.completed_at!).toISOString().slice(0, 10)}`, 'refund_window_passed');
      }
      const [request]: RefundRequestRow[] = await trx('refund_requests').insert({
        id: crypto.randomUUID(), purchase_id: p.id, user_id: user.id, user_email: user.email, user_name: user.name, reason: reason.trim(), status: 'pending',
      }).returning('*');
      // Unspent: the balance still holds every credit of the pack, so the refund costs nobody anything.
      if (await lockBalance(trx, user.id) < p.credits) return request;
      return startRefund(trx, p, request, p.amount_cents, { instant: true });
    });
    if (opened.status === 'pending') {
      return { request: refundRequestView(opened), message: 'Part of this pack has been used, so an administrator reviews your request. You will see the decision here and by email.' };
    }
    const carried = await this.carryOut(opened);
    return {
      request: refundRequestView(carried),
      message: carried.status === 'refunded'
        ? `Refunded ${usd(carried.amount_cents!)}; ${credits(carried.credits_reversed!)} left your balance.`
        : 'Your refund has started; the payment provider has not confirmed it yet. It finishes without you doing anything.',
    };
  }

  /** Asks the provider that took the payment to refund (PayPal-Request-Id `refund-<purchase>`, so a retry never refunds twice), then finishes. */
  private async carryOut(request: RefundRequestRow): Promise<RefundRequestRow> {
    const p: PurchaseRow = await this.db('purchases').where({ id: request.purchase_id }).first();
    const provider = this.providers.forMode(p.provider_mode);
    let failure: { message: string; refused: boolean };
    if (provider) {
      try {
        const result = await provider.refundCapture(p.capture_id!, p.id, request.amount_cents === p.amount_cents ? null : request.amount_cents);
        if (result.status !== 'COMPLETED') this.log.info({ purchaseId: p.id, refundId: result.refundId, status: result.status }, 'provider holds the refund as pending; the money follows');
        const finished = await inTransaction(this.db, (trx) => finishRefund(trx, p.id, result.refundId));
        return finished?.request ?? request;
      } catch (err) {
        if (err instanceof ProviderUnavailable) failure = { message: 'PayPal did not answer; retrying is safe (the same refund is never made twice)', refused: false };
        else if (err instanceof ProviderRefused) failure = { message: `PayPal refused the refund (${err.issue ?? `HTTP ${err.status}`})`, refused: true };
        else throw err;
      }
    } else {
      failure = { message: `This payment was made in PayPal ${p.provider_mode} mode, which is not configured on this server`, refused: false };
    }
    this.log.warn({ purchaseId: p.id, requestId: request.id, failure }, 'refund not finished');
    const [noted]: RefundRequestRow[] = await this.db('refund_requests').where({ id: request.id, status: 'processing' })
      .update({ last_error: failure.message, refused_by_provider: failure.refused }).returning('*');
    return noted ?? (await this.db('refund_requests').where({ id: request.id }).first());
  }

  async list(query: { status?: RefundRequestStatus | 'open' | 'all'; page?: number; page_size?: number }) {
    const { status = 'open', page = 1, page_size: pageSize = 20 } = query;
    const filtered = () => {
      const q = this.db('refund_requests as r');
      if (status === 'open') q.whereIn('r.status', ['pending', 'processing']);
      else if (status !== 'all') q.where('r.status', status);
      return q;
    };
    const [rows, [{ total }], [{ open }]] = await Promise.all([
      filtered().join('purchases as p', 'p.id', 'r.purchase_id').leftJoin('credit_balances as b', 'b.user_id', 'r.user_id')
        .select('r.*', 'p.plan_id', 'p.amount_cents as purchase_cents', 'p.credits as purchase_credits', 'p.completed_at as purchased_at', 'p.provider_mode', 'p.status as purchase_status', 'b.balance')
        // Oldest open request first: who has waited longest is decided first.
        .orderBy('r.requested_at', status === 'open' || status === 'pending' ? 'asc' : 'desc').orderBy('r.id')
        .limit(pageSize).offset((page - 1) * pageSize),
      filtered().count<{ total: string }[]>({ total: '*' }),
      this.db('refund_requests').whereIn('status', ['pending', 'processing']).count<{ open: string }[]>({ open: '*' }),
    ]);
    return { requests: rows.map((r) => this.adminView(r)), page, page_size: pageSize, total: Number(total), open: Number(open) };
  }

  private adminView(r: RefundRequestRow & { plan_id: string; purchase_cents: number; purchase_credits: number; purchased_at: Date | null; provider_mode: PaymentMode; purchase_status: string; balance: number | null }): AdminRefundRequest {
    return {
      ...refundRequestView(r),
      user_id: r.user_id,
      user_email: r.user_email,
      user_name: r.user_name,
      plan_id: r.plan_id,
      purchase_amount: dollars(r.purchase_cents),
      purchase_credits: r.purchase_credits,
      purchased_at: iso(r.purchased_at),
      unspent_credits: r.status === 'pending' && r.purchase_status === 'completed' ? Math.min(r.purchase_credits, Number(r.balance ?? 0)) : 0,
      provider_mode: r.provider_mode,
      decided_by: r.decided_by,
      refund_id: r.refund_id,
      last_error: r.last_error,
    };
  }

  private async adminViewOf(id: string): Promise<AdminRefundRequest> {
    const row = await this.db('refund_requests as r').join('purchases as p', 'p.id', 'r.purchase_id').leftJoin('credit_balances as b', 'b.user_id', 'r.user_id')
      .where('r.id', id)
      .first('r.*', 'p.plan_id', 'p.amount_cents as purchase_cents', 'p.credits as purchase_credits', 'p.completed_at as purchased_at', 'p.provider_mode', 'p.status as purchase_status', 'b.balance');
    return this.adminView(row);
  }

  private async lockRequest(trx: Trx, requestId: string): Promise<{ p: PurchaseRow; request: RefundRequestRow }> {
    const found: RefundRequestRow | undefined = await trx('refund_requests').where({ id: requestId }).first();
    if (!found) throw notFound('Refund request not found', 'refund_request_not_found');
    // The purchase first, as every refund path locks it, then the request.
    const p = (await lockPurchase(trx, found.purchase_id))!;
    const request: RefundRequestRow = await trx('refund_requests').where({ id: requestId }).forUpdate().first();
    return { p, request };
  }

  /** Approves a pending request (in full, or `amount` dollars), or retries one whose refund did not finish. */
  async approve(actor: Principal, requestId: string, body: ApproveRefundBody) {
    const started = await inTransaction(this.db, async (trx) => {
      const { p, request } = await this.lockRequest(trx, requestId);
      if (request.status === 'refunded') throw conflict('This request was already refunded: nothing is left to refund', 'nothing_to_refund');
      if (request.status === 'declined') throw conflict('This request was declined', 'refund_request_decided');
      if (request.status === 'processing') return request;
      if (p.status !== 'completed') throw conflict('This purchase was already refunded: nothing is left to refund', 'nothing_to_refund');
      const amountCents = body.amount === undefined ? p.amount_cents : Math.round(body.amount * 100);
      if (amountCents > p.amount_cents) throw badRequest(`A refund can be at most ${usd(p.amount_cents)}, the amount paid`, 'refund_amount_exceeded');
      return startRefund(trx, p, request, amountCents, { actorId: actor.id, reason: body.reason.trim(), instant: false });
    });
    const carried = await this.carryOut(started);
    const mode = MODE_LABEL[(await this.db('purchases').where({ id: carried.purchase_id }).first('provider_mode')).provider_mode as PaymentMode];
    const message = carried.status === 'refunded'
      ? `Refunded ${usd(carried.amount_cents!)} through ${mode}; ${credits(carried.credits_reversed!)} removed${carried.credits_shortfall ? ` (${credits(carried.credits_shortfall)} had been spent)` : ''}.`
      : `The refund has not finished: ${carried.last_error ?? 'the provider has not confirmed it'}.`;
    return { request: await this.adminViewOf(carried.id), message };
  }

  /**
   * Declines a pending request; or one the provider refused to refund, whose credits (taken back
   * when it started) are given back, since no money moved.
   */
  async decline(actor: Principal, requestId: string, reason: string) {
    const declined = await inTransaction(this.db, async (trx) => {
      const { p, request } = await this.lockRequest(trx, requestId);
      if (request.status === 'refunded' || request.status === 'declined') throw conflict(`This request was already ${request.status}`, 'refund_request_decided');
      if (request.status === 'processing') {
        if (!request.refused_by_provider) throw conflict('This refund has started and may have reached PayPal; retry it instead of declining', 'refund_in_progress');
        if (request.credits_reversed) {
          await appendEntry(trx, { userId: p.user_id!, delta: request.credits_reversed, reason: 'admin', ref: `purchase:${p.id}`, key: `refund-declined:${request.id}`, actorId: actor.id, note: 'refund declined after the provider refused it: credits given back' });
        }
      }
      const [row]: RefundRequestRow[] = await trx('refund_requests').where({ id: request.id }).update({
        status: 'declined', decided_by: actor.id, decision_reason: reason.trim(), decided_at: trx.fn.now(), amount_cents: null, credits_reversed: null, credits_shortfall: null,
      }).returning('*');
      return row;
    });
    return { request: await this.adminViewOf(declined.id), message: `Declined the refund request of ${declined.user_name || declined.user_email || 'this user'}.` };
  }
}
