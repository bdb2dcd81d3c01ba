import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type Ref } from 'react';
import type { RobotCheckConfig } from './contactApi';
import { createLocalTestCheck } from './localTestCheck';
import { RECAPTCHA_POLL, googleRecaptcha, loadGoogleRecaptchaScript, pollFor, type RecaptchaApi } from './recaptchaApi';

export interface RobotCheckHandle {
  isLoaded(): boolean;
  /** The token of a solved check, '' when unsolved; throws when the widget cannot be read. */
  getResponse(): string;
  reset(): void;
}

interface RobotCheckProps {
  /** null while the configuration loads. */
  config: RobotCheckConfig | null;
  configFailed: boolean;
  onUnavailable(): void;
  ref: Ref<RobotCheckHandle>;
}

/**
 * The robot check in its dark theme: Google's reCAPTCHA with the site key, or in local mode the
 * labelled test check behind the same interface. Polls for the widget every 100 ms for up to 10 s.
 */
export function RobotCheck({ config, configFailed, onUnavailable, ref }: RobotCheckProps) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: RecaptchaApi; id: number } | undefined>(undefined);
  const unavailable = useRef(onUnavailable);
  useLayoutEffect(() => {
    unavailable.current = onUnavailable;
  });
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>('loading');

  useImperativeHandle(ref, () => ({
    isLoaded: () => widget.current !== undefined,
    getResponse() {
      if (!widget.current) throw new Error('robot check not loaded');
      return widget.current.api.getResponse(widget.current.id);
    },
    reset() {
      widget.current?.api.reset(widget.current.id);
    },
  }), []);

  useEffect(() => {
    const giveUp = () => {
      setState('unavailable');
      unavailable.current();
    };
    if (configFailed) return giveUp();
    if (!config) return;
    const abort = new AbortController();
    let probe: () => RecaptchaApi | undefined = googleRecaptcha;
    if (config.provider === 'local') {
      const local = createLocalTestCheck();
      probe = () => local;
    } else {
      loadGoogleRecaptchaScript();
    }
    pollFor(probe, { ...RECAPTCHA_POLL, signal: abort.signal })
      .then((api) => {
        if (!container.current) return;
        // A fresh element each time: grecaptcha refuses to render twice into one element.
        const element = document.createElement('div');
        container.current.replaceChildren(element);
        widget.current = { api, id: api.render(element, { sitekey: config.site_key, theme: 'dark' }) };
        setState('ready');
      })
      .catch(() => { if (!abort.signal.aborted) giveUp(); });
    return () => {
      abort.abort();
      widget.current = undefined;
    };
  }, [config, configFailed]);

  return (
    <div className={state === 'unavailable' ? 'robot-check robot-check-unavailable' : 'robot-check'}>
      <div ref={container} data-testid="robot-check" />
      {state === 'loading' && <p className="robot-check-status">Loading the robot check...</p>}
      {state === 'unavailable' && <p className="robot-check-status">The robot check could not be loaded.</p>}
      {state === 'ready' && config?.provider === 'google' && config.test_mode && (
        <p className="robot-check-status">Test keys: this reCAPTCHA passes every check.</p>
      )}
    </div>
  );
}
