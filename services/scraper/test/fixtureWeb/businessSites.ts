/**
 * Generated business websites for the fixture web: each one a home page and a few linked pages
 * that carry its contacts in one of several common ways, with the contacts a careful reader
 * would take from it (`truth`), so tests can check what the crawler found.
 */
export interface BusinessSite {
  index: number;
  host: string;
  name: string;
  city: string;
  /** Lower-case emails and E.164 phones the site shows (what enrichment should find). */
  truth: { emails: string[]; phones: string[]; socials: string[]; person?: string };
  /** Path -> HTML. */
  pages: Map<string, string>;
  robotsTxt?: string;
  /** Contacts the place itself carries in the maps source (OSM tags). */
  placeTags: { phone?: string; email?: string };
}

const TRADES = ['Dental Care', 'Bakery', 'Plumbing', 'Cafe', 'Law Office', 'Garage', 'Florist', 'Opticians', 'Joinery', 'Physio'];
const NAMES = ['Bright', 'Oak', 'Harbour', 'Kingsway', 'Riverside', 'Elm', 'Crown', 'Northgate', 'Willow', 'Station'];
const CITY = 'London';

/** A London drama-range number (020 7946 0000-0999): valid in form, never a real subscriber. */
function phoneOf(index: number): { national: string; e164: string } {
  const line = String(index % 1000).padStart(3, '0');
  return { national: `020 7946 0${line}`, e164: `+442079460${line}` };
}

const OWNERS = ['Anna Berger', 'Jonas Keller', 'Maria Lindqvist', 'Tomasz Nowak', 'Claire Dubois'];
const ownerOf = (index: number): string => OWNERS[Math.floor(index / 10) % OWNERS.length];

const page = (title: string, body: string, nav = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="stylesheet" href="/style.css"></head><body><header><nav>${nav}</nav></header>` +
  `<main>${body}</main><footer><p>&copy; 2024 ${title.split(' - ')[0]}. Built with care.</p></footer></body></html>`;

/** Cloudflare's email obfuscation: a random key byte, then each byte XORed with it, in hex. */
function cloudflareEncode(email: string, key = 0x5a): string {
  return [key, ...Buffer.from(email).map((byte) => byte ^ key)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

const entityEncode = (text: string): string => [...text].map((char) => `&#${char.charCodeAt(0)};`).join('');

type Style = (site: { host: string; name: string; email: string; phone: { national: string; e164: string }; index: number }) => {
  pages: [string, string][];
  emails: string[];
  phones: string[];
  socials?: string[];
  /** The person the site names behind the business (its impressum's owner). */
  person?: string;
  robotsTxt?: string;
  placeTags?: { phone?: string; email?: string };
};

const STYLES: Style[] = [
  // mailto and tel links on a /contact page linked from the home page
  ({ name, email, phone }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><p>Welcome to ${name}, serving ${CITY} since 1998.</p>`, '<a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact us</a>')],
      ['/contact', page(`${name} - Contact`, `<h1>Contact</h1><p>Email: <a href="mailto:${email}">${email}</a></p><p>Call <a href="tel:${phone.e164}">${phone.national}</a></p>`)],
      ['/services', page(`${name} - Services`, '<p>Everything you need.</p>')],
    ],
    emails: [email],
    phones: [phone.e164],
  }),
  // contacts in the home page footer as plain text, social links
  ({ name, email, phone, host }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><p>Family run.</p><address>12 High Street, ${CITY} &middot; Tel. ${phone.national} &middot; ${email}</address>` +
        `<p><a href="https://www.facebook.com/${host.split('.')[0]}">Facebook</a> <a href="https://www.instagram.com/${host.split('.')[0]}/">Instagram</a></p>`,
      '<a href="/about-us">About us</a>')],
      ['/about-us', page(`${name} - About`, '<p>Our story began in a small workshop.</p>')],
    ],
    emails: [email],
    phones: [phone.e164],
    socials: [`https://www.facebook.com/${host.split('.')[0]}`, `https://www.instagram.com/${host.split('.')[0]}`],
  }),
  // an obfuscated "[at]"/"[dot]" address on a German-style /kontakt page; the impressum names the owner
  ({ name, email, phone, index }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><p>Quality work.</p>`, '<a href="/kontakt">Kontakt</a> <a href="/impressum">Impressum</a>')],
      ['/kontakt', page(`${name} - Kontakt`, `<p>Schreiben Sie uns: ${email.replace('@', ' [at] ').replace(/\.(?=[^.]+$)/, ' [dot] ')}</p>`)],
      ['/impressum', page(`${name} - Impressum`, `<p>${name} Ltd, 4 Mill Lane, ${CITY}</p><p>Inhaber: ${ownerOf(index)}</p><p>Telefon: ${phone.national}</p>`)],
    ],
    emails: [email],
    phones: [phone.e164],
    person: ownerOf(index),
  }),
  // Cloudflare-protected email on /contact-us, phone in JSON-LD on the home page
  ({ name, email, phone }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'LocalBusiness', name, telephone: phone.national, address: { '@type': 'PostalAddress', addressLocality: CITY } })}</script>`,
        '<a href="/contact-us">Get in touch</a>')],
      ['/contact-us', page(`${name} - Get in touch`, `<p>Email us: <a href="/cdn-cgi/l/email-protection#${cloudflareEncode(email)}"><span class="__cf_email__" data-cfemail="${cloudflareEncode(email)}">[email&#160;protected]</span></a></p>`)],
    ],
    emails: [email],
    phones: [phone.e164],
  }),
  // JSON-LD with both contacts on the home page; a robots.txt that allows us
  ({ name, email, phone }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Store', name, email, telephone: phone.e164 })}</script><p>Open daily.</p>`)],
    ],
    emails: [email],
    phones: [phone.e164],
    robotsTxt: 'User-agent: *\nDisallow: /private/\n',
  }),
  // phone only; the email is HTML-entity encoded on /imprint
  ({ name, email, phone }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><p>Ring us on ${phone.national}.</p>`, '<a href="/imprint">Imprint</a>')],
      ['/imprint', page(`${name} - Imprint`, `<p>Contact: <a href="mailto:${entityEncode(email)}">${entityEncode(email)}</a></p>`)],
    ],
    emails: [email],
    phones: [phone.e164],
  }),
  // no website contacts: the maps place carries a phone tag of its own; the home page names the owner
  ({ name, phone, index }) => ({
    pages: [['/', page(name, `<h1>${name}</h1><p>Visit us in ${CITY}.</p><p>Owner: ${ownerOf(index)}</p>`)]],
    emails: [],
    phones: [phone.e164],
    placeTags: { phone: phone.national },
    person: ownerOf(index),
  }),
  // no contacts anywhere: not a lead
  ({ name }) => ({
    pages: [['/', page(name, `<h1>${name}</h1><p>Coming soon.</p>`)]],
    emails: [],
    phones: [],
  }),
  // contacts on /legal, linked only from the footer text "Legal notice"
  ({ name, email, phone }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1><p>Since 2005.</p><p><a href="/legal">Legal notice</a></p>`)],
      ['/legal', page(`${name} - Legal`, `<dl><dt>E-mail</dt><dd>${email}</dd><dt>Phone</dt><dd>+44 ${phone.national.slice(1)}</dd></dl>`)],
    ],
    emails: [email],
    phones: [phone.e164],
  }),
  // a second address at a mail provider besides the own-domain one, contact page under /about/contact
  ({ name, email, phone, index }) => ({
    pages: [
      ['/', page(name, `<h1>${name}</h1>`, '<a href="/about/contact">Contact</a>')],
      ['/about/contact', page(`${name} - Contact`, `<p><a href="mailto:${email}">${email}</a> or <a href="mailto:bookings${index}@gmail.com">bookings${index}@gmail.com</a></p><p>${phone.national}</p>`)],
    ],
    emails: [email, `bookings${index}@gmail.com`],
    phones: [phone.e164],
  }),
];

/** The benchmark's site: a home page linking three pages, contacts on two of them. */
const UNIFORM: Style = ({ name, email, phone }) => ({
  pages: [
    ['/', page(name, `<h1>${name}</h1><p>Welcome.</p>`, '<a href="/contact">Contact</a> <a href="/about-us">About us</a> <a href="/impressum">Impressum</a>')],
    ['/contact', page(`${name} - Contact`, `<p>Write to <a href="mailto:${email}">${email}</a></p>`)],
    ['/about-us', page(`${name} - About`, '<p>Our team of twelve has served the area for decades.</p>')],
    ['/impressum', page(`${name} - Impressum`, `<p>${name} Ltd, registered in England. Telephone ${phone.national}</p>`)],
  ],
  emails: [email],
  phones: [phone.e164],
});

export function generateBusinessSites(count: number, uniform = false): BusinessSite[] {
  return Array.from({ length: count }, (_, index) => {
    const host = `site-${String(index).padStart(3, '0')}.fixture.test`;
    const name = `${NAMES[index % NAMES.length]} ${TRADES[Math.floor(index / NAMES.length) % TRADES.length]} ${index}`;
    const email = `${['info', 'hello', 'office', 'anna.berger'][index % 4]}@${host}`;
    const phone = phoneOf(index);
    const style = (uniform ? UNIFORM : STYLES[index % STYLES.length])({ host, name, email, phone, index });
    return {
      index,
      host,
      name,
      city: CITY,
      truth: { emails: style.emails, phones: style.phones, socials: style.socials ?? [], ...(style.person ? { person: style.person } : {}) },
      pages: new Map(style.pages),
      robotsTxt: style.robotsTxt,
      placeTags: style.placeTags ?? {},
    };
  });
}
