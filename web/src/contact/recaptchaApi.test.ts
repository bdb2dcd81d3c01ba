import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECAPTCHA_POLL, pollFor } from './recaptchaApi';

describe('pollFor (waiting for the robot check)', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('polls every 100 ms and resolves as soon as the widget is there', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const ready = pollFor(() => (++calls === 5 ? 'widget' : undefined), RECAPTCHA_POLL);
    await vi.advanceTimersByTimeAsync(399);
    expect(calls).toBe(4);
    await vi.advanceTimersByTimeAsync(1);
    await expect(ready).resolves.toBe('widget');
  });

  it('gives up after 10 seconds', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const never = pollFor(() => { calls++; return undefined; }, RECAPTCHA_POLL);
    const outcome = never.then(() => 'loaded', () => 'gave up');
    await vi.advanceTimersByTimeAsync(9_900);
    expect(calls).toBe(100);
    await vi.advanceTimersByTimeAsync(100);
    expect(await outcome).toBe('gave up');
    expect(calls).toBe(101);
  });
});
