import type { CreditActivityDay, CreditActivityResponse, LeadActivityDay, LeadActivityResponse } from '@leadforge/contracts';
import { api } from '../api/client';

/** Both activity queries sit under one key: whatever moves leads or credits marks them stale together. */
export const activityKeys = {
  all: ['activity'] as const,
  leads: ['activity', 'leads'] as const,
  credits: ['activity', 'credits'] as const,
};

export async function fetchLeadActivity(): Promise<LeadActivityDay[]> {
  return (await api.get<LeadActivityResponse>('/api/lead-activity')).data.days;
}

export async function fetchCreditActivity(): Promise<CreditActivityDay[]> {
  return (await api.get<CreditActivityResponse>('/api/payments/credit-activity')).data.days;
}
