import type {
  AdminRefundRequest, RefundRequestStatus,
  ActivityLogsResponse, AdminActionResponse, AdminParkedWorkResponse, AdminReplayParkedWorkRequest, ParkedWorkQuery, ReplayParkedWorkResponse, AdminUserDetailResponse, AffiliateApplicationsResponse, EnhancedStatsResponse, MessageBody,
  PayoutBatch, PayoutBatchesResponse,
  PaypalConfigResponse, ProxyStatsResponse, UsageStatsResponse,
} from '@leadforge/contracts';
import { api } from '../api/client';

/** The calls of the admin panel, one function per spec call (plus query parameters for paging). */

export interface ActivityQuery {
  type?: string;
  limit: number;
  cursor?: string;
}

/**
 * Query keys of the admin panel's data: the resource, then its parameters, so each page and filter is
 * cached apart and `statsAll` / `activityAll` mark every page of one resource stale at once.
 */
export const adminKeys = {
  statsAll: ['admin', 'enhanced-stats'] as const,
  stats: (query: StatsQuery) => ['admin', 'enhanced-stats', query] as const,
  activityAll: ['admin', 'activity-logs'] as const,
  activity: (query: ActivityQuery) => ['admin', 'activity-logs', query] as const,
  // Under statsAll: a change to a user from the list marks their open view stale too.
  user: (id: string) => ['admin', 'enhanced-stats', 'user', id] as const,
  proxyStats: ['admin', 'decodo-stats'] as const,
  affiliateApplications: (page: number) => ['admin', 'affiliate-applications', page] as const,
  payouts: ['admin', 'affiliate-payouts'] as const,
  proxyUsage: ['admin', 'decodo-usage'] as const,
  proxyUsageOf: (days: number | undefined) => ['admin', 'decodo-usage', days ?? 'since-reset'] as const,
  paypalConfig: ['admin', 'paypal-config'] as const,
  parkedWorkAll: ['admin', 'parked-work'] as const,
  parkedWork: (query: ParkedWorkQuery) => ['admin', 'parked-work', query] as const,
  refundsAll: ['admin', 'refunds'] as const,
  refunds: (query: RefundsQuery) => ['admin', 'refunds', query] as const,
};

export interface RefundsQuery {
  status: RefundRequestStatus | 'open' | 'all';
  page: number;
  page_size: number;
}

export interface RefundsPage {
  requests: AdminRefundRequest[];
  page: number;
  page_size: number;
  total: number;
  open: number;
}

export interface RefundDecision {
  request: AdminRefundRequest;
  message: string;
}

/** The Refunds queue: open requests (waiting for a decision or a retry) first, oldest first. */
export async function fetchRefunds(query: RefundsQuery): Promise<RefundsPage> {
  return (await api.get<RefundsPage>('/api/admin/refunds', { params: query })).data;
}

/** Approves in full (no amount) or in part; repeating it retries a refund that did not finish, never refunding twice. */
export async function approveRefund(requestId: string, reason: string, amount?: number): Promise<RefundDecision> {
  return (await api.post<RefundDecision>(`/api/admin/refunds/${encodeURIComponent(requestId)}/approve`, { reason, ...(amount === undefined ? {} : { amount }) })).data;
}

export async function declineRefund(requestId: string, reason: string): Promise<RefundDecision> {
  return (await api.post<RefundDecision>(`/api/admin/refunds/${encodeURIComponent(requestId)}/decline`, { reason })).data;
}

export interface StatsQuery {
  include: ('stats' | 'users' | 'contact_submissions')[];
  search?: string;
  role?: 'all' | 'user' | 'admin';
  users_page?: number;
  users_page_size?: number;
  contacts_page?: number;
  contacts_page_size?: number;
}

export async function fetchEnhancedStats({ include, ...rest }: StatsQuery): Promise<EnhancedStatsResponse> {
  const params: Record<string, string | number> = { include: include.join(',') };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined && value !== '') params[key] = value;
  return (await api.get<EnhancedStatsResponse>('/api/admin/enhanced-stats', { params })).data;
}

export async function fetchUserDetail(userId: string): Promise<AdminUserDetailResponse> {
  return (await api.get<AdminUserDetailResponse>(`/api/admin/users/${encodeURIComponent(userId)}`)).data;
}

export async function fetchActivityLogs(params: ActivityQuery): Promise<ActivityLogsResponse> {
  return (await api.get<ActivityLogsResponse>('/api/admin/activity-logs', { params })).data;
}

/** A fresh key per click: a retried or doubled request then changes credits once. */
const attemptKey = () => ({ 'Idempotency-Key': crypto.randomUUID() });

export async function updateCredits(userId: string, creditsChange: number): Promise<AdminActionResponse> {
  return (await api.post<AdminActionResponse>('/api/admin/update-credits', { user_id: userId, credits_change: creditsChange }, { headers: attemptKey() })).data;
}

export type UserAction = 'promote' | 'demote' | 'deactivate' | 'activate';

export async function userAction(userId: string, action: UserAction | number): Promise<AdminActionResponse> {
  const body = typeof action === 'number' ? { user_id: userId, action: 'credits', credits_change: action } : { user_id: userId, action };
  return (await api.post<AdminActionResponse>('/api/admin/user-action', body, { headers: attemptKey() })).data;
}

export async function fetchProxyStats(): Promise<ProxyStatsResponse> {
  return (await api.get<ProxyStatsResponse>('/api/admin/decodo-stats')).data;
}

/** `days`: the places sources' figures of the last N days; since the last reset when absent. */
export async function fetchProxyUsage(days?: number): Promise<UsageStatsResponse> {
  return (await api.get<UsageStatsResponse>('/api/admin/decodo-usage', { params: days ? { days } : undefined })).data;
}

export async function setProxyQuota(remainingRequests: number): Promise<MessageBody> {
  return (await api.post<MessageBody>('/api/admin/decodo-quota', { remaining_requests: remainingRequests })).data;
}

export async function resetProxyStats(): Promise<MessageBody> {
  return (await api.post<MessageBody>('/api/admin/decodo-reset-stats')).data;
}

export async function fetchPaypalConfig(): Promise<PaypalConfigResponse> {
  return (await api.get<PaypalConfigResponse>('/api/admin/paypal-config')).data;
}

export async function setPaypalSandboxMode(sandboxMode: boolean): Promise<MessageBody> {
  return (await api.post<MessageBody>('/api/admin/paypal-config', { sandbox_mode: sandboxMode })).data;
}

export interface ScrapeResult {
  url: string;
  scraped_at: string;
  data: unknown;
}

export async function scrapeUrl(url: string): Promise<ScrapeResult> {
  return (await api.post<ScrapeResult>('/api/scrape', { url })).data;
}

export async function fetchAffiliateApplications(page: number, pageSize: number): Promise<AffiliateApplicationsResponse> {
  return (await api.get<AffiliateApplicationsResponse>('/api/admin/affiliate-applications', { params: { page, page_size: pageSize } })).data;
}

export async function fetchPayoutBatches(): Promise<PayoutBatchesResponse> {
  return (await api.get<PayoutBatchesResponse>('/api/admin/affiliate-payouts')).data;
}

/** Runs (or resumes) the month's payout batch; the server pays each referrer once per month whatever the retries. */
export async function runPayoutBatch(period: string): Promise<PayoutBatch> {
  return (await api.post<PayoutBatch>('/api/admin/affiliate-payouts', { period })).data;
}

/** Every service's parked work (queues, outboxes, dead letters), oldest first. */
export async function fetchParkedWork(query: ParkedWorkQuery): Promise<AdminParkedWorkResponse> {
  return (await api.get<AdminParkedWorkResponse>('/api/admin/parked-work', { params: query })).data;
}

/** Replays parked work through the service that owns it; replaying twice replays nothing more. */
export async function replayParkedWork(request: AdminReplayParkedWorkRequest): Promise<ReplayParkedWorkResponse> {
  return (await api.post<ReplayParkedWorkResponse>('/api/admin/parked-work/replay', request)).data;
}
