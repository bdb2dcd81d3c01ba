import { describe, expect, it } from 'vitest';
import { emailsInText } from '../../src/extract/emailsInText.ts';

describe('addresses in running text', () => {
  it.each([
    ['Write to info@bakery.de today', 'info@bakery.de'],
    ['info[at]bakery.de', 'info@bakery.de'],
    ['info [at] bakery [dot] de', 'info@bakery.de'],
    ['info(at)bakery(dot)de', 'info@bakery.de'],
    ['info (at) bakery.de', 'info@bakery.de'],
    ['info{at}bakery{dot}co{dot}uk', 'info@bakery.co.uk'],
    ['info [@] bakery.de', 'info@bakery.de'],
    ['Anna.Smith at bakery dot co dot uk', 'anna.smith@bakery.co.uk'],
    ['E-Mail: info at bakery.de', 'info@bakery.de'],
  ])('reads %s', (text, email) => {
    expect(emailsInText(text)).toEqual([email]);
  });

  it('does not read sentences with " at " as addresses', () => {
    expect(emailsInText('Find us at bakery.de or meet us at the market')).toEqual([]);
    expect(emailsInText('Email us at www.bakery.de')).toEqual([]);
    expect(emailsInText('Join the team at bakery.de')).toEqual([]);
  });

  it('ignores things with an @ that are not addresses', () => {
    expect(emailsInText('family=Roboto:wght@400;700 and jquery@3.6.0 and @bakery on Instagram')).toEqual([]);
  });
});
