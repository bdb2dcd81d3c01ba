import type { Session } from '../auth/session';
import { isAdmin } from '../auth/user';

export interface GuardedRoute {
  adminOnly?: boolean;
}

export type GuardDecision =
  | { kind: 'loading' }
  | { kind: 'toLogin' }
  | { kind: 'toDashboard' }
  | { kind: 'allow' };

export function guardDecision(session: Session, route: GuardedRoute): GuardDecision {
  switch (session.status) {
    case 'loading':
      return { kind: 'loading' };
    case 'anonymous':
      return { kind: 'toLogin' };
    case 'authenticated':
      return route.adminOnly && !isAdmin(session.user) ? { kind: 'toDashboard' } : { kind: 'allow' };
  }
}
