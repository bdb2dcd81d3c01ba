import type { Db } from '@leadforge/kit/db';
import { ConfigError } from '@leadforge/kit/config';
import { badRequest, serviceUnavailable } from '@leadforge/kit/http';
import type { PaymentMode } from '@leadforge/contracts';
import type { PaymentsConfig } from '../config.ts';
import type { PaymentProvider } from './paymentProvider.ts';
import { PaypalProvider } from './paypalProvider.ts';
import { TestCheckoutProvider } from './testCheckoutProvider.ts';

interface SettingsRow { sandbox_mode: boolean; updated_by: string | null; updated_at: Date }

/**
 * The configured providers and the admin's stored choice between sandbox and live. Orders are
 * captured and refunded by the provider that created them, whatever the current choice.
 */
export class PaymentProviders {
  readonly sandbox?: PaypalProvider;
  readonly live?: PaypalProvider;
  readonly testCheckout?: TestCheckoutProvider;

  constructor(private readonly db: Db, config: PaymentsConfig) {
    const options = { timeoutMs: config.timeoutMs, retries: config.retries };
    if (config.sandbox) this.sandbox = new PaypalProvider(config.sandbox, options);
    if (config.live) this.live = new PaypalProvider(config.live, options);
    if (config.testCheckout) this.testCheckout = new TestCheckoutProvider(db);
  }

  /** Creates the settings row on first start (sandbox when sandbox credentials exist); in production the chosen mode must be configured. */
  async initialise(production: boolean): Promise<void> {
    await this.db('payment_settings').insert({ id: 1, sandbox_mode: Boolean(this.sandbox) || !this.live }).onConflict('id').ignore();
    const { sandbox_mode } = await this.settings();
    const chosen = sandbox_mode ? 'sandbox' : 'live';
    if (production && !this.forMode(chosen)) {
      const variable = chosen === 'sandbox' ? 'PAYPAL_CLIENT_ID' : 'PAYPAL_LIVE_CLIENT_ID';
      throw new ConfigError(variable, `is required: an administrator set PayPal to ${chosen} mode`);
    }
  }

  async settings(): Promise<SettingsRow> {
    return this.db('payment_settings').where({ id: 1 }).first();
  }

  forMode(mode: PaymentMode): PaymentProvider | undefined {
    return mode === 'sandbox' ? this.sandbox : mode === 'live' ? this.live : this.testCheckout;
  }

  /** The provider new orders go to. */
  async active(): Promise<PaymentProvider> {
    if (this.testCheckout) return this.testCheckout;
    const { sandbox_mode } = await this.settings();
    // Outside production a stored mode whose credentials were since removed falls back to the other.
    const provider = (sandbox_mode ? this.sandbox : this.live) ?? this.sandbox ?? this.live;
    if (!provider) throw serviceUnavailable('Payments are not configured', 'payments_unconfigured');
    return provider;
  }

  /** Providers whose webhooks we can verify. */
  webhookVerifiers(): PaymentProvider[] {
    return [this.sandbox, this.live].filter((p): p is PaypalProvider => Boolean(p));
  }

  /** The admin switch: refuses a mode without credentials (unless the test checkout is in use anyway). */
  async setSandboxMode(sandboxMode: boolean, actorId: string): Promise<void> {
    const mode = sandboxMode ? 'sandbox' : 'live';
    if (!this.testCheckout && !this.forMode(mode)) {
      const variables = sandboxMode ? 'PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET' : 'PAYPAL_LIVE_CLIENT_ID and PAYPAL_LIVE_CLIENT_SECRET';
      throw badRequest(`PayPal ${mode} mode needs ${variables} to be configured on the server`, 'mode_not_configured');
    }
    await this.db('payment_settings').where({ id: 1 }).update({ sandbox_mode: sandboxMode, updated_by: actorId, updated_at: this.db.fn.now() });
  }
}
