import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { adminKeys, scrapeUrl } from './adminApi';
import { dateTime } from './format';
import { useNotices } from './notices';

/** Public echo endpoints that show what the proxy presents to a site. */
export const SCRAPE_SHORTCUTS = [
  { label: 'IP check', url: 'https://httpbin.org/ip' },
  { label: 'JSON test', url: 'https://httpbin.org/json' },
  { label: 'User-agent test', url: 'https://httpbin.org/user-agent' },
] as const;

/** Card 3 of the proxy tab: one scrape through the scraper service, result shown as JSON. */
export function ScraperTestCard() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const scrape = useMutation({
    mutationFn: scrapeUrl,
    onMutate: () => notices.clear(),
    onSuccess: () => notices.success('URL scraped successfully!'),
    onError: (err) => notices.error(errorDetail(err, 'Failed to scrape URL')),
    // A failed scrape is a request through the proxy too: the usage card counts both.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.proxyUsage }),
  });
  const result = scrape.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!url.trim()) {
      notices.error('Please enter a URL to scrape');
      return;
    }
    scrape.mutate(url.trim());
  }

  return (
    <section className="card admin-section" aria-labelledby="admin-scrape-heading">
      <h2 id="admin-scrape-heading">Scraper Test</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="admin-scrape-url">URL to scrape</label>
          <input id="admin-scrape-url" type="url" placeholder="https://example.com" value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div className="admin-actions">
          {SCRAPE_SHORTCUTS.map((s) => (
            <button key={s.label} type="button" className="btn btn-ghost btn-sm" onClick={() => setUrl(s.url)}>{s.label}</button>
          ))}
          <button type="submit" className="btn btn-primary admin-push-right" disabled={scrape.isPending}>{scrape.isPending ? 'Scraping...' : 'Scrape URL'}</button>
        </div>
      </form>
      {result && (
        <div className="admin-scrape-result" data-testid="scrape-result">
          <dl className="admin-facts">
            <div><dt>URL</dt><dd className="admin-break">{result.url}</dd></div>
            <div><dt>Scraped at</dt><dd>{dateTime(result.scraped_at)}</dd></div>
          </dl>
          <pre tabIndex={0}>{JSON.stringify(result.data, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
