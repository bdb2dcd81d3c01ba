import { describe, expect, it } from 'vitest';
import type { Session } from '../auth/session';
import type { User } from '../auth/user';
import { guardDecision } from './guardDecision';

const user: User = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'user',
  credits: 10,
  status: 'active',
  created_at: '2025-01-01T00:00:00Z',
};
const signedIn = (role: User['role']): Session => ({ status: 'authenticated', user: { ...user, role } });

describe('guardDecision', () => {
  it('waits while the session check runs', () => {
    expect(guardDecision({ status: 'loading' }, {})).toEqual({ kind: 'loading' });
    expect(guardDecision({ status: 'loading' }, { adminOnly: true })).toEqual({ kind: 'loading' });
  });

  it('sends anonymous visitors to login', () => {
    expect(guardDecision({ status: 'anonymous' }, {})).toEqual({ kind: 'toLogin' });
    expect(guardDecision({ status: 'anonymous' }, { adminOnly: true })).toEqual({ kind: 'toLogin' });
  });

  it('lets any signed-in user into login-required routes', () => {
    expect(guardDecision(signedIn('user'), {})).toEqual({ kind: 'allow' });
    expect(guardDecision(signedIn('admin'), {})).toEqual({ kind: 'allow' });
  });

  it('sends non-admins away from admin-only routes to the dashboard', () => {
    expect(guardDecision(signedIn('user'), { adminOnly: true })).toEqual({ kind: 'toDashboard' });
    expect(guardDecision(signedIn('admin'), { adminOnly: true })).toEqual({ kind: 'allow' });
  });
});
