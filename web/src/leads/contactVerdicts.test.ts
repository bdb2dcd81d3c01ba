import { describe, expect, it } from 'vitest';
import type { Lead } from '@leadforge/contracts';
import { emailBadge, filterByEmailVerdict, phoneBadge, provenanceText } from './contactVerdicts';

const lead = (fields: Partial<Lead>): Lead => ({ name: 'A', company: 'A', email: 'a@b.de', phone: '+4933224288333', website: '', city: '', ...fields });

describe('contact verdicts in the results table', () => {
  it('badges an email by its status and says when it is a role address', () => {
    expect(emailBadge(lead({ email_status: 'valid', email_type: 'personal' }))).toMatchObject({ label: 'Valid', tone: 'good' });
    expect(emailBadge(lead({ email_status: 'risky', email_type: 'role' }))).toMatchObject({ label: 'Risky', tone: 'warn', hint: expect.stringContaining('role address') });
    expect(emailBadge(lead({ email_status: 'invalid' }))).toMatchObject({ tone: 'bad' });
    expect(emailBadge(lead({}))).toBeUndefined();
    expect(emailBadge(lead({ email: '', email_status: 'valid' }))).toBeUndefined();
  });

  it('names the phone type', () => {
    expect(phoneBadge(lead({ phone_type: 'fixed_line' }))?.label).toBe('Landline');
    expect(phoneBadge(lead({ phone_type: 'unknown' }))).toBeUndefined();
  });

  it('tells where a contact came from', () => {
    expect(provenanceText('https://b.de/kontakt', '2026-11-24T10:00:00.000Z')).toMatch(/^Found on https:\/\/b\.de\/kontakt, fetched /);
    expect(provenanceText('osm:node/1', undefined)).toBe('From the map listing (osm:node/1)');
    expect(provenanceText(undefined, undefined)).toBeUndefined();
  });

  it('keeps only valid emails when asked', () => {
    const leads = [lead({ email_status: 'valid' }), lead({ email_status: 'risky' }), lead({})];
    expect(filterByEmailVerdict(leads, true)).toEqual([leads[0]]);
    expect(filterByEmailVerdict(leads, false)).toBe(leads);
  });
});
