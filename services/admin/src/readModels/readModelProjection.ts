import { EMAIL_SHA256_SQL, EVENT_TYPES, type EventType } from '@leadforge/contracts';
import type { EventHandlers } from '@leadforge/kit/events';
import { addToDay, eventTime, utcDay } from './dailyRollup.ts';
import { changeUser } from './userChanges.ts';

const AUDIT_DETAIL_ERASED = 'Details erased: the account was deleted.';

/**
 * Applies each event to the read models. The kit's consumer calls these once per event id, inside the
 * transaction that records the event as handled, so a redelivery changes nothing. Every handler is
 * written so that events of different topics may arrive in any order relative to each other.
 */
export const readModelProjection: EventHandlers = {
  async 'user.registered'(data, envelope, trx) {
    const createdAt = eventTime(data.created_at, envelope);
    // user.registered is the first event of its user on auth.user, so its role and status are current;
    // a row may already exist from a credits.changed that overtook it on another topic.
    const { wasRegistered } = await changeUser(trx, data.user_id, { name: data.name, email: data.email, role: data.role, status: data.status, created_at: createdAt });
    if (!wasRegistered) await addToDay(trx, utcDay(createdAt), { signups: 1 });
  },

  async 'user.role_changed'(data, _envelope, trx) {
    await changeUser(trx, data.user_id, { role: data.role });
  },

  async 'user.status_changed'(data, _envelope, trx) {
    // A deleted account's name and address leave the admin panel with it (auth has erased them).
    await changeUser(trx, data.user_id, data.status === 'deleted' ? { status: data.status, name: null, email: null } : { status: data.status });
  },

  async 'user.renamed'(data, _envelope, trx) {
    await changeUser(trx, data.user_id, { name: data.name });
  },

  async 'account.deleted'(data, _envelope, trx) {
    // The account leaves the user list and the totals; its purchases and activity stay (ids and
    // amounts, the figures of their days), and the messages sent from its address go.
    await changeUser(trx, data.user_id, { status: 'deleted', name: null, email: null });
    // What its searches looked for goes too (their counts and credits stay).
    await trx('rm_activity').where({ user_id: data.user_id }).update({ industry: null, location: null });
    await trx('rm_contact_submissions').whereRaw(`${EMAIL_SHA256_SQL} = ?`, [data.email_sha256]).delete();
    // The audit log keeps who did what to which id; the words naming the account are redacted
    // (the only change its trigger allows).
    await trx('admin_audit_log').where({ target_id: data.user_id }).whereNot({ detail: AUDIT_DETAIL_ERASED }).update({ detail: AUDIT_DETAIL_ERASED });
    await trx('admin_audit_log').where({ actor_id: data.user_id }).update({ actor_email: `deleted-${data.user_id}@deleted.invalid` });
  },

  async 'credits.changed'(data, envelope, trx) {
    // Billing's events of one user arrive in order, so the last balance is the current one.
    await changeUser(trx, data.user_id, { credits: data.balance, credits_as_of: envelope.occurred_at });
  },

  async 'purchase.completed'(data, envelope, trx) {
    const completedAt = eventTime(data.completed_at, envelope);
    const inserted = await trx('rm_purchases')
      .insert({
        purchase_id: data.purchase_id,
        user_id: data.user_id,
        plan_id: data.plan_id,
        amount: data.amount,
        credits: data.credits,
        completed_at: completedAt,
        test: data.test === true,
      })
      .onConflict('purchase_id').ignore()
      .returning('purchase_id');
    if (!inserted.length) return;
    await trx('rm_activity').insert({
      event_id: envelope.id, type: 'payment', user_id: data.user_id, occurred_at: completedAt,
      ref: data.purchase_id, amount: data.amount, credits: data.credits,
    });
    // Test-checkout money never moved: counted apart, never as revenue.
    await addToDay(trx, utcDay(completedAt), data.test ? { test_purchases: 1, test_amount: data.amount } : { purchases: 1, revenue: data.amount });
  },

  async 'purchase.refunded'(data, envelope, trx) {
    const refundedAt = eventTime(data.refunded_at, envelope);
    const [refunded]: { test: boolean }[] = await trx('rm_purchases').where({ purchase_id: data.purchase_id })
      .update({ refunded_amount: trx.raw('refunded_amount + ?', [data.amount]), refunded_at: refundedAt })
      .returning('test');
    await trx('rm_activity').insert({
      event_id: envelope.id, type: 'refund', user_id: data.user_id, occurred_at: refundedAt,
      ref: data.purchase_id, amount: data.amount, credits: data.credits_reversed,
    });
    await addToDay(trx, utcDay(refundedAt), refunded?.test ? { test_refunded: data.amount } : { refunds: 1, refunded: data.amount });
  },

  async 'search.completed'(data, envelope, trx) {
    const completedAt = eventTime(data.timestamp, envelope);
    await trx('rm_activity').insert({
      event_id: envelope.id, type: 'scrape', user_id: data.user_id, occurred_at: completedAt,
      ref: data.search_id, results_count: data.results_count, credits: data.credits_used,
      industry: data.industry ?? null, location: data.location ?? null,
    });
    await addToDay(trx, utcDay(completedAt), { scrapes: 1, leads: data.results_count, credits_used: data.credits_used });
  },

  async 'contact.submitted'(data, envelope, trx) {
    await trx('rm_contact_submissions')
      .insert({ submission_id: data.submission_id, name: data.name, email: data.email, message: data.message, submitted_at: eventTime(data.submitted_at, envelope) })
      .onConflict('submission_id').ignore();
  },
};

/** The topics the projection reads: exactly the ones its handlers' event types travel on. */
export const PROJECTED_TOPICS: string[] = [...new Set(Object.keys(readModelProjection).map((type) => EVENT_TYPES[type as EventType].topic))];
