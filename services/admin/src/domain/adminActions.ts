import type { AdminActionResponse, Role, UserStatus } from '@leadforge/contracts';
import type { ServiceContext } from '@leadforge/kit/service';
import type { Principal, UserStanding } from '@leadforge/kit/http';
import { badRequest, notFound } from '@leadforge/kit/http';
import { awaitReadModel } from './readModelCatchUp.ts';
import { userSnapshot } from './userDirectory.ts';

interface OwnerUserView {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
}

/** Billing's answer to an adjustment; only the balance matters here, and only when billing gives it. */
interface AdjustmentAnswer {
  balance?: number;
}

export interface AdminActionsOptions {
  /** How long an action waits for its event to reach the read model before answering. */
  catchUpMs: number;
}

/**
 * Admin actions on data other services own: each is a synchronous internal call to the owner
 * (auth for role and status, billing for credits), which applies its own rules, publishes the
 * change, and answers; the read model then catches up from that event.
 */
export function adminActions(ctx: ServiceContext, options: AdminActionsOptions) {
  /** The target as auth knows it now; a missing or deleted account is a 404 for every action. */
  async function existingTarget(userId: string): Promise<UserStanding> {
    const standing = await ctx.internal
      .call<UserStanding>('auth', 'GET', `/internal/users/${encodeURIComponent(userId)}/standing`, { timeoutMs: 3000 })
      .catch((err) => {
        if (err?.statusCode === 404) throw notFound('User not found', 'user_not_found');
        throw err;
      });
    if (standing.status === 'deleted') throw notFound('User not found', 'user_not_found');
    return standing;
  }

  async function displayName(userId: string): Promise<string> {
    const known = await userSnapshot(ctx.db, userId);
    return known?.name || known?.email || `user ${userId.slice(0, 8)}`;
  }

  return {
    async adjustCredits(actor: Principal, userId: string, change: number, idempotencyKey: string): Promise<AdminActionResponse> {
      if (!Number.isInteger(change) || change === 0) throw badRequest('Please enter a credit amount other than zero', 'invalid_amount');
      await existingTarget(userId);
      const answer = await ctx.internal.call<AdjustmentAnswer>('billing', 'POST', '/internal/credits/adjust', {
        body: { user_id: userId, delta: change, actor_id: actor.id, reason: 'admin adjustment', idempotency_key: `admin:${actor.id}:${idempotencyKey}` },
        timeoutMs: 5000,
        // Billing applies one adjustment per idempotency key.
        idempotent: true,
      });
      const answeredAt = new Date();
      const balance = typeof answer?.balance === 'number' ? answer.balance : undefined;
      // Billing's events of a user are handled in order: once the read model shows our balance, or any
      // balance announced after billing answered us (so after our change), it has taken ours in.
      await awaitReadModel(ctx.db, userId, (s) => s?.credits === balance || (s?.creditsAsOf ?? 0) >= answeredAt, options.catchUpMs);
      const who = await displayName(userId);
      const amount = Math.abs(change);
      const what = change > 0 ? `Added ${amount} credit${amount === 1 ? '' : 's'} to ${who}` : `Removed ${amount} credit${amount === 1 ? '' : 's'} from ${who}`;
      return { message: balance === undefined ? `${what}.` : `${what}. New balance: ${balance}.`, user: { id: userId, ...(balance !== undefined ? { credits: balance } : {}) } };
    },

    async changeRole(actor: Principal, userId: string, role: Role): Promise<AdminActionResponse> {
      if (userId === actor.id && role !== 'admin') throw badRequest('You cannot demote your own account', 'self_demote');
      const before = await existingTarget(userId);
      const user = await ctx.internal.call<OwnerUserView>('auth', 'POST', `/internal/users/${encodeURIComponent(userId)}/role`, {
        body: { role, actor_id: actor.id },
        timeoutMs: 5000,
        // Sets the role: a repeat finds it set and changes nothing.
        idempotent: true,
      });
      await awaitReadModel(ctx.db, userId, (s) => s?.role === role, options.catchUpMs);
      const who = user.name || user.email;
      const message = before.role === role
        ? `${who} is already ${role === 'admin' ? 'an admin' : 'a regular user'}.`
        : role === 'admin' ? `${who} is now an admin.` : `${who} is now a regular user.`;
      return { message, user: { id: userId, role: user.role, status: user.status } };
    },

    async changeStatus(actor: Principal, userId: string, status: 'active' | 'inactive'): Promise<AdminActionResponse> {
      if (userId === actor.id && status !== 'active') throw badRequest('You cannot deactivate your own account', 'self_deactivate');
      const before = await existingTarget(userId);
      const user = await ctx.internal.call<OwnerUserView>('auth', 'POST', `/internal/users/${encodeURIComponent(userId)}/status`, {
        body: { status, actor_id: actor.id },
        timeoutMs: 5000,
        idempotent: true,
      });
      await awaitReadModel(ctx.db, userId, (s) => s?.status === status, options.catchUpMs);
      const who = user.name || user.email;
      const message = before.status === status
        ? `${who} is already ${status === 'active' ? 'active' : 'inactive'}.`
        : status === 'active' ? `${who} has been reactivated.` : `${who} has been deactivated.`;
      return { message, user: { id: userId, role: user.role, status: user.status } };
    },
  };
}

export type AdminActions = ReturnType<typeof adminActions>;
