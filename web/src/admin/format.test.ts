import { describe, expect, it } from 'vitest';
import { activityLabel, age, activitySummary, dataSize, dollars, kbPerRequest, parseCreditChange, parseQuota, planLabel, shortId, splitBalance } from './format';

describe('admin panel formatting', () => {
  it('shows money with two decimals and plan ids the spec way', () => {
    expect(dollars(49)).toBe('$49.00');
    expect(dollars(1234.5)).toBe('$1,234.50');
    expect(dollars(-19)).toBe('-$19.00');
    expect(planLabel('cbc500_promo')).toBe('CBC500 PROMO');
    expect(planLabel('growth')).toBe('GROWTH');
  });

  it('describes activity entries as the spec lists them', () => {
    expect(activityLabel('scrape')).toBe('Lead Generation');
    expect(activityLabel('payment')).toBe('Payment');
    expect(activitySummary({ type: 'scrape', details: { results_count: 7, credits_used: 7 } })).toBe('7 leads, 7 credits');
    expect(activitySummary({ type: 'scrape', details: { results_count: 1, credits_used: 1 } })).toBe('1 lead, 1 credit');
    expect(activitySummary({ type: 'payment', details: { amount: 49, credits: 330 } })).toBe('$49.00, 330 credits');
    expect(activitySummary({ type: 'admin_action', details: { action: 'user.promote', target_id: '0123456789ab', result: 'ok', detail: 'Ada is now an admin.' } }))
      .toBe('user.promote on 01234567: ok (Ada is now an admin.)');
    expect(activitySummary({ type: 'admin_action', details: { action: 'user.deactivate', target_id: '0123456789ab', target_name: 'Ada', result: 'refused', detail: 'User not found' } }))
      .toBe('user.deactivate on Ada: refused (User not found)');
    expect(shortId('01a2006a-ad2b-73cc')).toBe('01a2006a');
  });

  it('chooses MB or KB for traffic and splits the balance note', () => {
    expect(dataSize(2.5, 2560)).toBe('2.50 MB');
    expect(dataSize(0.5, 512)).toBe('512.00 KB');
    expect(dataSize(1, 1024)).toBe('1024.00 KB');
    expect(kbPerRequest(100, 8)).toBe('12.50');
    expect(kbPerRequest(0, 0)).toBe('0.00');
    expect(splitBalance('12.5 GB left - renews on the 1st')).toEqual({ amount: '12.5 GB left', note: 'renews on the 1st' });
    expect(splitBalance('N/A')).toEqual({ amount: 'N/A', note: '' });
  });

  it('accepts only valid quotas and signed non-zero credit amounts', () => {
    expect(parseQuota('10000')).toBe(10000);
    expect(parseQuota('0')).toBe(0);
    for (const bad of ['', ' ', '-5', '1.5', 'abc']) expect(parseQuota(bad)).toBeNull();
    expect(parseCreditChange('+25')).toBe(25);
    expect(parseCreditChange('-10')).toBe(-10);
    for (const bad of ['', '0', '1.5', 'ten', '--1']) expect(parseCreditChange(bad)).toBeNull();
  });

  it('says how long ago work was parked', () => {
    const now = Date.parse('2026-12-02T12:00:00Z');
    expect(age('2026-12-02T11:59:30Z', now)).toBe('just now');
    expect(age('2026-12-02T11:55:00Z', now)).toBe('5 min ago');
    expect(age('2026-12-02T09:00:00Z', now)).toBe('3 h ago');
    expect(age('2026-11-28T12:00:00Z', now)).toBe('4 days ago');
  });
});
