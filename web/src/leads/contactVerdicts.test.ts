import { describe, expect, it } from 'vitest';
import { matchesFilter, NO_FILTER, type Lead } from '@leadforge/contracts';
import { emailBadge, phoneBadge, provenanceText } from './contactVerdicts';

const lead = (fields: Partial<Lead>): Lead => ({ name: 'A', company: 'A', email: 'a@b.de', phone: '+4933224288333', website: '', city: '', ...fields });

describe('contact verdicts in the results table', () => {
  it('badges an email by its deliverability and says its type and evidence', () => {
    expect(emailBadge(lead({ email_deliverability: 'deliverable', email_type: 'personal' }))).toMatchObject({ label: 'Deliverable', tone: 'good' });
    expect(emailBadge(lead({ email_deliverability: 'deliverable', email_type: 'role', email_mx_host: 'mx.bakery.de', email_smtp_code: 250 })))
      .toMatchObject({ label: 'Deliverable', tone: 'good', hint: expect.stringMatching(/role address.*mail host mx\.bakery\.de, reply 250/) });
    expect(emailBadge(lead({ email_deliverability: 'accept_all', email_type: 'personal' }))).toMatchObject({ label: 'Accept all', tone: 'warn' });
    expect(emailBadge(lead({ email_deliverability: 'undeliverable', email_type: 'personal', email_smtp_code: 550 }))).toMatchObject({ label: 'Undeliverable', tone: 'bad' });
    expect(emailBadge(lead({ email_deliverability: 'undeliverable' }))).toMatchObject({ tone: 'bad' });
    // The exports' word, not a synonym of its own.
    expect(emailBadge(lead({ email_deliverability: 'unknown' }))).toMatchObject({ label: 'Unknown', tone: 'neutral' });
    expect(emailBadge(lead({}))).toBeUndefined();
    expect(emailBadge(lead({ email: '', email_deliverability: 'deliverable' }))).toBeUndefined();
  });

  it('names the phone type', () => {
    expect(phoneBadge(lead({ phone_type: 'fixed_line' }))?.label).toBe('Fixed line');
    expect(phoneBadge(lead({ phone_type: 'toll_free' }))?.label).toBe('Toll free');
    expect(phoneBadge(lead({ phone_type: 'unknown' }))).toBeUndefined();
  });

  it('tells where a contact came from', () => {
    expect(provenanceText('https://b.de/kontakt', '2026-11-24T10:00:00.000Z')).toMatch(/^Found on https:\/\/b\.de\/kontakt, fetched /);
    expect(provenanceText('osm:node/1', undefined)).toBe('From the map listing (osm:node/1)');
    expect(provenanceText(undefined, undefined)).toBeUndefined();
  });

  it('filters by words, contact routes and email verdict', () => {
    const leads = [
      lead({ company: 'Bright Dental', city: 'Leeds', email_deliverability: 'deliverable' }),
      lead({ company: 'Oak Bakery', city: 'York', email: '', email_deliverability: undefined }),
      lead({ company: 'Elm Garage', city: 'Leeds', phone: '', email_deliverability: 'accept_all' }),
    ];
    const shown = (filter: Partial<typeof NO_FILTER>) => leads.filter((l) => matchesFilter(l, { ...NO_FILTER, ...filter })).map((l) => l.company);
    expect(shown({})).toEqual(['Bright Dental', 'Oak Bakery', 'Elm Garage']);
    expect(shown({ text: 'leeds' })).toEqual(['Bright Dental', 'Elm Garage']);
    expect(shown({ text: 'LEEDS bright' })).toEqual(['Bright Dental']);
    expect(shown({ hasEmail: true })).toEqual(['Bright Dental', 'Elm Garage']);
    expect(shown({ hasPhone: true })).toEqual(['Bright Dental', 'Oak Bakery']);
    expect(shown({ emailDeliverability: 'accept_all' })).toEqual(['Elm Garage']);
  });
});
