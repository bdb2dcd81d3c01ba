import { describe, expect, it } from 'vitest';
import { isJunkEmail } from '../../src/extract/emailJunk.ts';
import { extractFromHtml } from './extractFromHtml.ts';

describe('junk addresses', () => {
  it.each([
    'logo@2x.png',
    'hero-image@3x.webp',
    'you@example.com',
    'name@yourdomain.com',
    'info@domain.com',
    'john.doe@gmail.com',
    'max.mustermann@web.de',
    '8f14e45fceea167a5a36dedd4bea2543@o123456.ingest.sentry.io',
    'abc@sentry-next.wixpress.com',
    'noreply@bakery.de',
    'do-not-reply@bakery.de',
    'support@squarespace.com',
  ])('drops %s', (email) => {
    expect(isJunkEmail(email)).toBe(true);
  });

  it.each(['info@bakery.de', 'john@johnsplumbing.com', 'anna.smith@bakery.co.uk', 'kontakt@sentry-security.de'])(
    'keeps %s',
    (email) => {
      expect(isJunkEmail(email)).toBe(false);
    },
  );

  it('keeps addresses out of comments, scripts and styles unless they are visible too', () => {
    const page = `
      <!-- <p>Old template: srk@template-vendor.net</p> -->
      <script>var credit = "theme@templatevendor.com"; var re = /^[a-z]+@([a-z]+[.])+[a-z]{2,6}$/;</script>
      <style>@import url("https://fonts.googleapis.com/css2?family=Inter:wght@400");</style>
      <img src="img/logo@2x.png" alt="logo@2x.png">
      <p>Contact: hello@bakery-muller.de</p>`;
    expect(extractFromHtml(page).emails).toEqual(['hello@bakery-muller.de']);
  });

  it('drops credits to the web designer in the footer', () => {
    const page = `<p>Mail: info@bakery-muller.de</p><footer>© Bakery Müller | Design by Pixel Agency, hello@pixel-agency.com</footer>`;
    expect(extractFromHtml(page).emails).toEqual(['info@bakery-muller.de']);
  });
});
