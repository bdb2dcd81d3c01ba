import { USER_ACTIONS, type Role } from '@leadforge/contracts';
import { badRequest } from '@leadforge/kit/http';

export type UserActionCommand =
  | { kind: 'credits'; change: number; audit: 'credits.adjust' }
  | { kind: 'role'; role: Role; audit: 'user.promote' | 'user.demote' }
  | { kind: 'status'; status: 'active' | 'inactive'; audit: 'user.deactivate' | 'user.activate' };

const MAX_CHANGE = 1_000_000;
const SIGNED_AMOUNT = /^[+-]?\d{1,7}$/;

/** A credit amount as the panel may send it: a whole, non-zero number or its signed text ("+10", "-10"). */
export function creditChange(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && SIGNED_AMOUNT.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n)) throw badRequest('credits_change must be a whole number', 'invalid_amount');
  if (n === 0) throw badRequest('Please enter a credit amount other than zero', 'invalid_amount');
  if (Math.abs(n) > MAX_CHANGE) throw badRequest(`credits_change must be between -${MAX_CHANGE} and ${MAX_CHANGE}`, 'invalid_amount');
  return n;
}

/**
 * Reads `POST /api/admin/user-action` in both of the spec's forms: a named action
 * (promote, demote, deactivate; also activate), or a credit change given as `action: "credits"`
 * with `credits_change`, or as the signed amount itself in `action`.
 */
export function parseUserAction(action: string | number, creditsChange?: number): UserActionCommand {
  if (typeof action === 'string' && (USER_ACTIONS as readonly string[]).includes(action)) {
    switch (action) {
      case 'promote': return { kind: 'role', role: 'admin', audit: 'user.promote' };
      case 'demote': return { kind: 'role', role: 'user', audit: 'user.demote' };
      case 'deactivate': return { kind: 'status', status: 'inactive', audit: 'user.deactivate' };
      case 'activate': return { kind: 'status', status: 'active', audit: 'user.activate' };
      default:
        if (creditsChange === undefined) throw badRequest('Please select a user and enter credit amount', 'missing_amount');
        return { kind: 'credits', change: creditChange(creditsChange), audit: 'credits.adjust' };
    }
  }
  if (typeof action === 'number' || SIGNED_AMOUNT.test(action.trim())) {
    return { kind: 'credits', change: creditChange(action), audit: 'credits.adjust' };
  }
  throw badRequest('action must be promote, demote, deactivate, activate, credits or a signed credit amount', 'invalid_action');
}
