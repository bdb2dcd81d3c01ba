/** Sites whose pages attack the parser: deep nesting under the size cap (issue 17, finding 1). */
export const HOSTILE_HOSTS = {
  /** Every page: 400,000 nested divs and a contact line, 1.95 MB (under the 2 MB cap). */
  nested: 'nested.fixture.test',
  /** A plain home page with an email, linking a contact page that is nested 400,000 deep. */
  nestedContact: 'nested-contact.fixture.test',
  /** 5,000 nested divs and a contact line, 24 KB: small, and still past the depth bound. */
  nested5000: 'nested-5000.fixture.test',
  /** JSON arrays nested 200,000 deep (400 KB), for the admin test scrape. */
  nestedJson: 'nested-json.fixture.test',
} as const;

export interface HostileAnswer {
  contentType: string;
  body: string;
}

const CONTACT_LINE = (host: string) => `<p>Call us on 020 7946 0555 or write to hello@${host}</p>`;
const nestedPage = (divs: number, host: string) => `<!doctype html><html><body>${'<div>'.repeat(divs)}${CONTACT_LINE(host)}</body></html>`;

let deepPage: string | undefined;

/** The page a hostile host serves at `path`, or undefined when the host is not one of them. */
export function hostilePage(host: string, path: string): string | undefined {
  switch (host) {
    case HOSTILE_HOSTS.nested:
      deepPage ??= nestedPage(400_000, host);
      return deepPage;
    case HOSTILE_HOSTS.nestedContact:
      if (path === '/contact') return nestedPage(400_000, host);
      return `<!doctype html><html><body><h1>Nested Contact Dental</h1><p>Email: home@${host}</p><a href="/contact">Contact us</a></body></html>`;
    case HOSTILE_HOSTS.nested5000:
      return nestedPage(5_000, host);
    default:
      return undefined;
  }
}

/** What a hostile host answers at `path` (an HTML page, or deep JSON), or undefined when the host is not one of them. */
export function hostileAnswer(host: string, path: string): HostileAnswer | undefined {
  if (host === HOSTILE_HOSTS.nestedJson) return { contentType: 'application/json', body: `${'['.repeat(200_000)}${']'.repeat(200_000)}` };
  const page = hostilePage(host, path);
  return page === undefined ? undefined : { contentType: 'text/html; charset=utf-8', body: page };
}
