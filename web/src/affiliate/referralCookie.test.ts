import { describe, expect, it } from 'vitest';
import { readReferralCode } from './referralCookie';

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
