export interface RenderParams {
  sitekey: string;
  theme: 'dark' | 'light';
}

/** The part of Google's grecaptcha (reCAPTCHA v2, explicit rendering) the contact form relies on. */
export interface RecaptchaApi {
  render(container: HTMLElement, params: RenderParams): number;
  getResponse(widgetId?: number): string;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Partial<RecaptchaApi>;
  }
}

/** The spec: the check is polled every 100 ms for up to 10 s while it loads. */
export const RECAPTCHA_POLL = { intervalMs: 100, timeoutMs: 10_000 };
export const GOOGLE_RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=explicit';

/** Google's widget once its script has run, else undefined. */
export function googleRecaptcha(): RecaptchaApi | undefined {
  const g = window.grecaptcha;
  return g && typeof g.render === 'function' && typeof g.getResponse === 'function' && typeof g.reset === 'function' ? (g as RecaptchaApi) : undefined;
}

/** Adds Google's script to the page once (the CSP allows www.google.com/recaptcha/). */
export function loadGoogleRecaptchaScript(): void {
  if (document.querySelector(`script[src="${GOOGLE_RECAPTCHA_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.src = GOOGLE_RECAPTCHA_SCRIPT;
  script.async = true;
  script.defer = true;
  document.head.appendChild(script);
}

/** Asks `probe` every `intervalMs` until it gives a value; rejects after `timeoutMs` or once aborted. */
export function pollFor<T>(probe: () => T | undefined, options: { intervalMs: number; timeoutMs: number; signal?: AbortSignal }): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (options.signal?.aborted) return reject(new Error('aborted'));
      const value = probe();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started >= options.timeoutMs) return reject(new Error('timed out'));
      setTimeout(check, options.intervalMs);
    };
    check();
  });
}
