import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { loadScript, type PayPalButtonsComponent } from '@paypal/paypal-js';
import type { CheckoutButtonProps, CheckoutHandlers } from './checkout';
import { ProcessingButton } from './ProcessingButton';

/**
 * PayPal's Smart Buttons (SDK loaded with currency USD and intent capture). The buttons stay
 * mounted while a payment is processing — PayPal's window talks to them — and are only hidden.
 */
export function PaypalButtons({ config, item, processing, ...handlers }: CheckoutButtonProps) {
  const container = useRef<HTMLDivElement>(null);
  const latest = useRef<CheckoutHandlers>(handlers);
  // Set once the render commits (a render React throws away must not leave its handlers behind),
  // before PayPal can call one.
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let buttons: PayPalButtonsComponent | undefined;
    let cancelled = false;
    // The create error was already reported; PayPal then reports it again through onError.
    let createFailed = false;
    loadScript({ clientId: config.client_id, currency: config.currency, intent: config.intent })
      .then(async (paypal) => {
        if (cancelled || !paypal?.Buttons || !container.current) return;
        buttons = paypal.Buttons({
          style: { layout: 'horizontal', color: 'gold', shape: 'rect', label: 'paypal', height: 42, tagline: false },
          createOrder: async () => {
            try {
              return await latest.current.createOrder();
            } catch (err) {
              createFailed = true;
              latest.current.onError('create', err);
              throw err;
            }
          },
          onApprove: async (data) => latest.current.onApprove(data.orderID, data.payerID ?? null),
          onCancel: () => latest.current.onCancel(),
          onError: (err) => {
            if (createFailed) {
              createFailed = false;
              return;
            }
            latest.current.onError('provider', err);
          },
        });
        await buttons.render(container.current);
        if (!cancelled) setState('ready');
      })
      .catch((err) => {
        console.error('PayPal SDK failed to load:', err);
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      void buttons?.close().catch(() => undefined);
    };
  }, [config.client_id, config.currency, config.intent]);

  return (
    <div className="checkout-button" aria-label={`Pay ${item.name} with PayPal`}>
      {processing && <ProcessingButton />}
      {state === 'loading' && !processing && <p className="checkout-loading muted">Loading PayPal…</p>}
      {state === 'failed' && <p className="checkout-unavailable">PayPal could not be loaded. Check your connection and reload the page.</p>}
      <div ref={container} hidden={processing || state === 'failed'} />
    </div>
  );
}
