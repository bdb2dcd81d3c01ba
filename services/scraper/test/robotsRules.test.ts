import { afterEach, describe, expect, it, vi } from 'vitest';
import { RobotsRules } from '../src/outbound/robotsRules.ts';

/** Rules whose robots.txt fetches answer `answer` once `answered` resolves. */
const rulesWith = (answer: { status: number; body: string }, answered: Promise<void> = Promise.resolve()) => {
  const fetched: string[] = [];
  const rules = new RobotsRules(async (url) => {
    fetched.push(url);
    await answered;
    return answer;
  }, { userAgent: 'LeadforgeBot/1.0 (+http://localhost:8080)', maxCrawlDelayMs: 5000 });
  return { rules, fetched };
};

describe('robots.txt rules', () => {
  it('applies the group of our product token, and caps Crawl-delay', async () => {
    const { rules } = rulesWith({ status: 200, body: 'User-agent: *\nDisallow: /private\n\nUser-agent: LeadforgeBot\nDisallow: /no-bots\nCrawl-delay: 60\n' });
    expect(await rules.check(new URL('http://a.test/contact'))).toEqual({ allowed: true, crawlDelayMs: 5000 });
    expect((await rules.check(new URL('http://a.test/no-bots/x'))).allowed).toBe(false);
    // Our own group replaces the * group (RFC 9309).
    expect((await rules.check(new URL('http://a.test/private'))).allowed).toBe(true);
  });

  it('allows everything when robots.txt is missing, disallows when it is unreachable or failing', async () => {
    expect((await rulesWith({ status: 404, body: '' }).rules.check(new URL('http://a.test/x'))).allowed).toBe(true);
    expect((await rulesWith({ status: 503, body: '' }).rules.check(new URL('http://a.test/x'))).allowed).toBe(false);
    expect((await rulesWith({ status: 0, body: '' }).rules.check(new URL('http://a.test/x'))).allowed).toBe(false);
  });

  it('fetches each site\'s file once, and a caller that gives up does not spoil it for the others', async () => {
    let answer!: () => void;
    const { rules, fetched } = rulesWith({ status: 200, body: 'User-agent: *\nDisallow: /admin\n' }, new Promise((resolve) => { answer = resolve; }));
    const impatient = new AbortController();
    const first = rules.check(new URL('http://a.test/'), impatient.signal);
    const second = rules.check(new URL('http://a.test/admin'));
    impatient.abort('gave up');
    await expect(first).rejects.toBe('gave up');
    // The site answers only after the first caller gave up.
    answer();
    expect(await second).toEqual({ allowed: false, crawlDelayMs: 0 });
    expect(await rules.check(new URL('http://a.test/about'))).toEqual({ allowed: true, crawlDelayMs: 0 });
    expect(fetched).toEqual(['http://a.test/robots.txt']);
  });

  describe('asks an unreachable file again after a minute, a fetched one after an hour', () => {
    afterEach(() => { vi.useRealTimers(); });
    for (const failure of [{ status: 0, body: '' }, { status: 503, body: '' }]) {
      it(`status ${failure.status}`, async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        const answers = [failure, { status: 200, body: 'User-agent: *\nDisallow: /admin\n' }];
        const fetched: string[] = [];
        const rules = new RobotsRules(async (url) => {
          fetched.push(url);
          return answers[Math.min(fetched.length, answers.length) - 1];
        }, { userAgent: 'LeadforgeBot/1.0', maxCrawlDelayMs: 5000 });
        const page = new URL('http://a.test/contact');
        expect((await rules.check(page)).allowed).toBe(false);
        vi.advanceTimersByTime(30_000);
        expect((await rules.check(page)).allowed).toBe(false);
        expect(fetched).toHaveLength(1);
        // A timeout of ours under load (or the site's bad minute) no longer keeps it out for the hour.
        vi.advanceTimersByTime(31_000);
        expect((await rules.check(page)).allowed).toBe(true);
        expect(fetched).toHaveLength(2);
        vi.advanceTimersByTime(59 * 60_000);
        expect((await rules.check(new URL('http://a.test/admin'))).allowed).toBe(false);
        expect(fetched).toHaveLength(2);
      });
    }
  });
});
