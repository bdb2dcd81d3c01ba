import { emailDomain } from './emailAddress.ts';

// Asset names such as logo@2x.png look like addresses with a file extension for a TLD.
const FILE_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'css', 'js',
  'mjs', 'json', 'xml', 'pdf', 'zip', 'rar', 'gz', 'mp3', 'mp4', 'webm', 'mov', 'avi', 'woff', 'woff2',
  'ttf', 'eot', 'otf', 'map', 'php', 'html', 'htm', 'asp', 'aspx', 'jsp', 'txt', 'doc', 'docx', 'xls',
  'xlsx', 'csv',
]);

const PLACEHOLDER_DOMAINS = [
  /^example\./, /\.example$/, /(^|\.)(your|my)[-.]?(domain|site|website|company|business|email)\./,
  /^(domain|company|email|test|sample|website|site|foo|bar|acme)\.(com|tld|net|org)$/, /^localhost$/,
];

const PLACEHOLDER_LOCALS = new Set([
  'your', 'yourname', 'your.name', 'youremail', 'your.email', 'your-email', 'name', 'user', 'username',
  'firstname', 'first.last', 'firstname.lastname', 'vorname.nachname', 'max.mustermann', 'mustermann',
  'john.doe', 'jane.doe', 'johndoe', 'janedoe', 'test', 'example', 'someone', 'somebody', 'xxx',
]);

const UNREACHABLE_LOCALS = /^(no-?reply|do-?not-?reply|mailer-daemon)([.+-]|$)/;

// Error trackers, site builders, mailing and CDN vendors whose addresses leak into page markup.
const VENDOR_DOMAINS = [
  'sentry.io', 'wixpress.com', 'wix.com', 'parastorage.com', 'squarespace.com', 'shopify.com',
  'godaddy.com', 'wordpress.com', 'wordpress.org', 'cloudflare.com', 'mailchimp.com', 'list-manage.com',
  'hubspot.com', 'sendgrid.net', 'mandrillapp.com', 'amazonses.com', 'w3.org', 'schema.org',
  'jquery.com', 'getbootstrap.com', 'fontawesome.com', 'googleapis.com', 'gstatic.com', 'jsdelivr.net',
  'unpkg.com', 'cdnjs.com', 'bugsnag.com', 'segment.io', 'mixpanel.com', 'intercom.io',
];

function isVendorDomain(domain: string): boolean {
  return VENDOR_DOMAINS.some((vendor) => domain === vendor || domain.endsWith(`.${vendor}`));
}

/** True for addresses that are not a business's contact: assets, placeholders, vendors, trackers. */
export function isJunkEmail(email: string): boolean {
  const local = email.slice(0, email.lastIndexOf('@'));
  const domain = emailDomain(email);
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  return (
    FILE_EXTENSIONS.has(tld) ||
    /^[0-9a-f]{16,}$/.test(local) ||
    PLACEHOLDER_LOCALS.has(local) ||
    UNREACHABLE_LOCALS.test(local) ||
    PLACEHOLDER_DOMAINS.some((pattern) => pattern.test(domain)) ||
    isVendorDomain(domain)
  );
}
