import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import { optOutConfirmationMail } from '../mail/mailMessages.ts';
import { enqueueMail } from '../mail/mailOutbox.ts';
import type { AuthRuntime } from '../runtime.ts';

/**
 * Mails the link that confirms an email opt-out (leads owns opt-outs; auth holds the mail outbox).
 * Queued in the transaction that records the event as handled, so a redelivery sends nothing twice;
 * a link already expired (an old event read by a new group) is not sent.
 */
export function startOptOutMailConsumer(rt: AuthRuntime): Promise<Subscription> {
  const { ctx } = rt;
  return ctx.consume('auth.opt-out-mail', [TOPICS.leadsSearch], {
    'opt_out.confirmation_requested': async (data, _envelope, trx) => {
      const expiresAt = new Date(data.expires_at);
      if (expiresAt.getTime() <= Date.now()) return;
      await enqueueMail(trx, optOutConfirmationMail(data.email, ctx.config.publicUrl, data.confirm_url), expiresAt.getTime() - Date.now());
      trx.executionPromise.then(() => rt.mail.wake(), () => undefined);
    },
  });
}
