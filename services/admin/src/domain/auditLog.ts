import crypto from 'node:crypto';
import type { ServiceContext } from '@leadforge/kit/service';
import type { Principal } from '@leadforge/kit/http';
import { emitEvent } from '@leadforge/kit/events';
import { HttpError } from '@leadforge/kit/http';

export type AuditResult = 'ok' | 'refused' | 'failed';

export interface AuditEntry {
  actor: Principal;
  action: string;
  targetId?: string;
  request: Record<string, unknown>;
  result: AuditResult;
  detail: string;
}

/** Appends one entry to the audit log and announces it as `admin.action`, in one transaction. */
export async function recordAdminAction(ctx: ServiceContext, entry: AuditEntry): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const [row] = await trx('admin_audit_log').insert({
      id: crypto.randomUUID(),
      actor_id: entry.actor.id,
      actor_email: entry.actor.email,
      action: entry.action,
      target_id: entry.targetId ?? null,
      request: JSON.stringify(entry.request),
      result: entry.result,
      detail: entry.detail,
    }).returning('at');
    await emitEvent(trx, 'admin.action', entry.actor.id, {
      actor_id: entry.actor.id,
      action: entry.action,
      ...(entry.targetId ? { target_id: entry.targetId } : {}),
      result: entry.result,
      at: new Date(row.at).toISOString(),
    });
  });
  ctx.relay.wake();
}

/**
 * Runs an admin action and records its outcome whatever it is: done, refused by a rule (4xx, with
 * the owner's reason) or failed (the owner could not be reached). The caller gets the same answer.
 */
export async function audited<T extends { message: string }>(
  ctx: ServiceContext,
  entry: Omit<AuditEntry, 'result' | 'detail'>,
  action: () => Promise<T>,
): Promise<T> {
  let outcome: T;
  try {
    outcome = await action();
  } catch (err) {
    const refused = err instanceof HttpError && err.statusCode < 500;
    const detail = err instanceof HttpError ? err.detail : 'unexpected error';
    await recordAdminAction(ctx, { ...entry, result: refused ? 'refused' : 'failed', detail }).catch((auditErr) => unrecorded(ctx, entry, auditErr));
    throw err;
  }
  // The change is made by now: a lost audit row is logged loudly rather than reported as a failed action.
  await recordAdminAction(ctx, { ...entry, result: 'ok', detail: outcome.message }).catch((auditErr) => unrecorded(ctx, entry, auditErr));
  return outcome;
}

function unrecorded(ctx: ServiceContext, entry: Omit<AuditEntry, 'result' | 'detail'>, err: unknown): void {
  ctx.log.error({ err, actor: entry.actor.id, action: entry.action, target: entry.targetId }, 'could not record an admin action in the audit log');
}
