import { describe, expect, it } from 'vitest';
import { redirectTarget } from './redirectTarget';

describe('redirectTarget', () => {
  it('defaults to the dashboard', () => {
    expect(redirectTarget(undefined)).toBe('/dashboard');
    expect(redirectTarget(null)).toBe('/dashboard');
    expect(redirectTarget({})).toBe('/dashboard');
    expect(redirectTarget({ from: 'credits' })).toBe('/dashboard');
  });

  it('returns to the page the guard sent the user from, with query and hash', () => {
    expect(redirectTarget({ from: { pathname: '/credits', search: '?plan=growth', hash: '#faq' } })).toBe(
      '/credits?plan=growth#faq',
    );
    expect(redirectTarget({ from: { pathname: '/admin' } })).toBe('/admin');
  });

  it('never goes to another origin or back to an auth page', () => {
    expect(redirectTarget({ from: { pathname: '//evil.example/x' } })).toBe('/dashboard');
    expect(redirectTarget({ from: { pathname: 'https://evil.example' } })).toBe('/dashboard');
    expect(redirectTarget({ from: { pathname: '/login' } })).toBe('/dashboard');
    expect(redirectTarget({ from: { pathname: '/register' } })).toBe('/dashboard');
  });
});
