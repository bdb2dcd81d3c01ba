import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import { PAYMENT_ROUTES } from '@leadforge/contracts';
import type { BillingRuntime } from '../runtime.ts';

/** PayPal's webhook listener. The body is kept as the exact bytes PayPal signed. */
export async function webhookRoutes(app: App, rt: BillingRuntime): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 128 * 1024 }, (_request, body, done) => done(null, body));
    handle(scope, PAYMENT_ROUTES.webhook, async (request) => rt.webhooks.handle({ headers: request.headers, rawBody: String(request.body ?? '') }));
  });
}
