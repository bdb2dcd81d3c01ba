import type { App } from '@leadforge/kit/service';
import { handle, principalOf } from '@leadforge/kit/http';
import { PAYMENT_ROUTES } from '@leadforge/contracts';
import type { BillingRuntime } from '../runtime.ts';

/** The admin panel's payment-provider switch (sandbox <-> live), stored in billing's database, and its Refunds queue. */
export async function adminRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const { providers, refundRequests } = rt;

  handle(app, PAYMENT_ROUTES.refundRequests, async (request) => refundRequests.list(request.query));

  handle(app, PAYMENT_ROUTES.approveRefund, async (request) => {
    const answer = await refundRequests.approve(principalOf(request), request.params.requestId, request.body);
    rt.ctx.log.info({ actor: principalOf(request).id, requestId: request.params.requestId, status: answer.request.status }, 'refund request approved');
    return answer;
  });

  handle(app, PAYMENT_ROUTES.declineRefund, async (request) => {
    const answer = await refundRequests.decline(principalOf(request), request.params.requestId, request.body.reason);
    rt.ctx.log.info({ actor: principalOf(request).id, requestId: request.params.requestId }, 'refund request declined');
    return answer;
  });

  handle(app, PAYMENT_ROUTES.paypalConfig, async () => {
    const [settings, active] = await Promise.all([providers.settings(), providers.active()]);
    return {
      sandbox_mode: settings.sandbox_mode,
      client_id: active.clientId,
      mode: active.mode,
      sandbox_configured: Boolean(providers.sandbox),
      live_configured: Boolean(providers.live),
    };
  });

  handle(app, PAYMENT_ROUTES.setPaypalConfig, async (request) => {
    const { sandbox_mode } = request.body;
    await providers.setSandboxMode(sandbox_mode, principalOf(request).id);
    const mode = sandbox_mode ? 'sandbox' : 'live';
    rt.ctx.log.info({ actor: principalOf(request).id, mode }, 'PayPal mode changed');
    if (providers.testCheckout) {
      return { message: `Saved: PayPal ${mode} mode. No PayPal credentials are configured, so the built-in test checkout stays in use.` };
    }
    return { message: `PayPal switched to ${mode} mode` };
  });
}
