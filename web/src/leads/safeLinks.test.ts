import { describe, expect, it } from 'vitest';
import { httpUrl, mailtoHref, telHref } from './safeLinks';

describe('links made from scraped data', () => {
  it('renders only http and https websites', () => {
    expect(httpUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(httpUrl('http://example.com')).toBe('http://example.com/');
    for (const bad of ['javascript:alert(1)', ' javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'example.com', '']) {
      expect(httpUrl(bad)).toBeNull();
    }
  });

  it('makes mailto and tel links only from plain addresses and numbers', () => {
    expect(mailtoHref('info@example.com')).toBe('mailto:info@example.com');
    expect(mailtoHref('a@b.com?bcc=c@d.com')).toBeNull();
    expect(mailtoHref('')).toBeNull();
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(telHref('call us')).toBeNull();
  });
});
