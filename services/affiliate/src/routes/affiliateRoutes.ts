import type { FastifyRequest } from 'fastify';
import type { App } from '@leadforge/kit/service';
import type { Principal } from '@leadforge/kit/http';
import { badRequest, handle, notFound, principalOf, rateLimited, trimBodyStrings } from '@leadforge/kit/http';
import { AFFILIATE_ROUTES, REFERRAL_WINDOW_DAYS } from '@leadforge/contracts';
import { ensureAffiliate, findAffiliateByCode, referralLink } from '../domain/affiliates.ts';
import { latestApplication, payoutAddress, setPayoutEmail, submitApplication } from '../domain/applications.ts';
import { matureCommissions } from '../domain/commissions.ts';
import { commissionStatement, referrerTotals } from '../domain/earnings.ts';
import { toDollars } from '../domain/cents.ts';
import { signReferralToken } from '../domain/referralTokens.ts';
import type { AffiliateRuntime } from '../runtime.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** People paste values with stray spaces: trim every string field before validation. */
const trimStrings = trimBodyStrings();

export async function affiliateRoutes(app: App, rt: AffiliateRuntime): Promise<void> {
  const { db, config } = rt.ctx;

  /** Public routes that do more for a signed-in caller; a bad token there is simply ignored. */
  async function optionalPrincipal(request: FastifyRequest): Promise<Principal | undefined> {
    if (!request.headers.authorization) return undefined;
    try {
      await app.requireUser(request);
      return request.principal;
    } catch {
      return undefined;
    }
  }

  async function affiliateOf(request: FastifyRequest) {
    const user = principalOf(request);
    const affiliate = await ensureAffiliate(db, { id: user.id, name: user.name, email: user.email });
    await matureCommissions(db, rt.clock(), user.id);
    return affiliate;
  }

  handle(app, AFFILIATE_ROUTES.stats, async (request) => {
    const affiliate = await affiliateOf(request);
    const [totals, address, application] = await Promise.all([
      referrerTotals(db, affiliate.user_id), payoutAddress(db, affiliate.user_id), latestApplication(db, affiliate.user_id),
    ]);
    return {
      total_referrals: totals.referrals,
      total_commissions: toDollars(totals.commissionsCents),
      referral_code: affiliate.referral_code,
      referral_link: referralLink(config.publicUrl, affiliate.referral_code),
      ...address,
      application,
    };
  });

  handle(app, AFFILIATE_ROUTES.setPayoutEmail, { preValidation: trimStrings }, async (request) => {
    const affiliate = await affiliateOf(request);
    await setPayoutEmail(db, affiliate.user_id, request.body.paypal_email);
    return payoutAddress(db, affiliate.user_id);
  });

  handle(app, AFFILIATE_ROUTES.commissions, async (request) => {
    const { page = 1, page_size = 20 } = request.query;
    const affiliate = await affiliateOf(request);
    return commissionStatement(db, affiliate.user_id, page, page_size);
  });

  handle(app, AFFILIATE_ROUTES.apply, {
    preValidation: trimStrings,
    onRequest: rateLimited(rt.ctx.counters, { name: 'affiliate-apply-ip', max: rt.limits.applyPerIpPerHour, windowMs: HOUR }),
  }, async (request, reply) => {
    const principal = await optionalPrincipal(request);
    const application = await submitApplication(db, request.body, { userId: principal?.id, remoteIp: request.ip });
    return reply.status(201).send({
      message: `Thank you for applying, ${application.name}! We will review your application and reply to ${application.email}.`,
    });
  });

  handle(app, AFFILIATE_ROUTES.referralVisit, {
    preValidation: trimStrings,
    onRequest: rateLimited(rt.ctx.counters, { name: 'affiliate-visit-ip', max: rt.limits.visitsPerIpPerMinute, windowMs: MINUTE }),
  }, async (request, reply) => {
    const { code } = request.body;
    const affiliate = await findAffiliateByCode(db, code);
    if (!affiliate) throw notFound('Unknown referral code', 'unknown_referral_code');
    const principal = await optionalPrincipal(request);
    if (principal?.id === affiliate.user_id) throw badRequest('You cannot use your own referral link', 'self_referral');
    const visitedAt = new Date();
    const maxAgeSeconds = REFERRAL_WINDOW_DAYS * 24 * 3600;
    return reply.status(201).send({
      referral_token: signReferralToken(rt.referralSecret, affiliate.referral_code, visitedAt),
      expires_at: new Date(visitedAt.getTime() + maxAgeSeconds * 1000).toISOString(),
      max_age_seconds: maxAgeSeconds,
    });
  });
}
