import { describe, expect, it } from 'vitest';
import { monitorNewLeadsMail, searchReadyMail } from '../src/mail/mailMessages.ts';

const URL = 'http://127.0.0.1:8080';

describe('the mails count in words that agree', () => {
  it('names a monitor run\'s new businesses in the plural or the singular, whatever the industry was typed as', () => {
    const run = (newLeads: number, industry: string) => monitorNewLeadsMail('ada@example.com', 'Ada', URL, { industry, location: 'Lindenfeld', newLeads, searchId: 's-1' }).subject;
    expect(run(5, 'dentist')).toBe('5 new dentists in Lindenfeld');
    expect(run(5, 'Dentists')).toBe('5 new dentists in Lindenfeld');
    expect(run(1, 'Dentists')).toBe('1 new dentist in Lindenfeld');
    expect(run(2, 'pharmacy')).toBe('2 new pharmacies in Lindenfeld');
    expect(run(3, 'Hair salon')).toBe('3 new hair salons in Lindenfeld');
    expect(run(1, 'business')).toBe('1 new business in Lindenfeld');
  });

  it('counts a finished search\'s leads', () => {
    const ready = (resultsCount: number) => searchReadyMail('ada@example.com', 'Ada', URL, { resultsCount, finishedAt: '2026-12-02T05:00:00Z' }).subject;
    expect(ready(1)).toBe('Your leads are ready: 1 lead');
    expect(ready(1200)).toBe('Your leads are ready: 1,200 leads');
  });
});
