import { describe, expect, it } from 'vitest';
import { readReferralCode, referralCookie, referralParam } from './referralCookie';

describe('readReferralCode', () => {
  it('reads lf_ref among other cookies', () => {
    expect(readReferralCode('XSRF-TOKEN=abc; lf_ref=ADA42; theme=dark')).toBe('ADA42');
    expect(readReferralCode('lf_ref=ADA%2042')).toBe('ADA 42');
  });

  it('is undefined when absent, empty or malformed', () => {
    expect(readReferralCode('')).toBeUndefined();
    expect(readReferralCode('xlf_ref=1; lf_refx=2')).toBeUndefined();
    expect(readReferralCode('lf_ref=')).toBeUndefined();
    expect(readReferralCode('lf_ref=%E0%A4%A')).toBeUndefined();
  });
});

describe('referralCookie', () => {
  it('keeps the token for the given age on the whole site, Secure on https', () => {
    const token = 'ABCD2345.t5x0k1.Zm9vYmFyYmF6cXV4eHl6MTIz';
    expect(referralCookie(token, 5184000, false)).toBe(`lf_ref=${token}; Max-Age=5184000; Path=/; SameSite=Lax`);
    expect(referralCookie(token, 5184000, true)).toMatch(/; Secure$/);
    expect(readReferralCode(referralCookie(token, 1, false).split(';')[0])).toBe(token);
  });
});

describe('referralParam', () => {
  it('takes a code-like ?ref and ignores anything else', () => {
    expect(referralParam('?ref=ABCD2345')).toBe('ABCD2345');
    expect(referralParam('?utm_source=x&ref=%20abcd2345%20')).toBe('abcd2345');
    expect(referralParam('?ref=')).toBeUndefined();
    expect(referralParam('?ref=<script>')).toBeUndefined();
    expect(referralParam('')).toBeUndefined();
  });
});
