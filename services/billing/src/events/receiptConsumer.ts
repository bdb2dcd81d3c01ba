import { PLANS, PROMO_CBC500, TOPICS, type PlanId } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import { mailRecipientOf } from '@leadforge/kit/mail';
import type { BillingRuntime } from '../runtime.ts';

const RECEIPT_MAX_AGE_MS = 24 * 3600_000;

function planName(planId: string): string {
  if (planId === PROMO_CBC500.plan) return `${PROMO_CBC500.code} promotion`;
  return PLANS[planId as PlanId]?.name ?? planId;
}

/**
 * A receipt for every completed purchase and a notice for every refund, queued in the transaction
 * that records the event as handled: a redelivered event never sends a second receipt. The address
 * is auth's (asked for each email); an account gone or deactivated gets none.
 */
export function consumeReceipts(rt: BillingRuntime): Promise<Subscription> {
  const { ctx, mail } = rt;
  return ctx.consume('billing.receipts', [TOPICS.billingPurchase], {
    'purchase.completed': async (data, _envelope, trx) => {
      // billing.purchase keeps its whole history: a new consumer group starts from the first sale,
      // and nobody wants a receipt for last year's purchase.
      if (Date.now() - new Date(data.completed_at).getTime() > RECEIPT_MAX_AGE_MS) return;
      const user = await mailRecipientOf(ctx.internal, data.user_id);
      if (!user) return;
      await mail.send(trx, {
        to: user.email,
        userId: user.user_id,
        template: 'receipt',
        data: {
          name: user.name,
          purchaseId: data.purchase_id,
          planName: planName(data.plan_id),
          credits: data.credits,
          amount: data.amount,
          currency: data.currency,
          completedAt: data.completed_at,
        },
      });
    },
    'purchase.refunded': async (data, _envelope, trx) => {
      if (Date.now() - new Date(data.refunded_at).getTime() > RECEIPT_MAX_AGE_MS) return;
      const user = await mailRecipientOf(ctx.internal, data.user_id);
      if (!user) return;
      // Billing sells in USD only (its purchases table refuses any other currency).
      await mail.send(trx, {
        to: user.email,
        userId: user.user_id,
        template: 'refund',
        data: {
          name: user.name,
          purchaseId: data.purchase_id,
          amount: data.amount,
          currency: 'USD',
          creditsReversed: data.credits_reversed,
          refundedAt: data.refunded_at,
        },
      });
    },
  });
}
