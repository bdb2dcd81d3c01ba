import { useQuery } from '@tanstack/react-query';
import type { PublicLeadStats, ScraperStatusResponse } from '@leadforge/contracts';
import { api } from '../api/client';
import { STALE_TIME } from '../api/queryClient';

/** Where the home page's figures come from, for anyone to check. */
export const LEAD_STATS_PATH = '/api/lead-stats';

export async function fetchLeadStats(): Promise<PublicLeadStats> {
  const { data } = await api.get<PublicLeadStats>(LEAD_STATS_PATH);
  return data;
}

export async function fetchScraperStatus(): Promise<ScraperStatusResponse> {
  const { data } = await api.get<ScraperStatusResponse>('/api/scrape/status');
  return data;
}

/** A claim of the home page: a figure with its label, and the sentence the copy uses (after what is always true). */
export interface Claim {
  value: string;
  label: string;
  sentence: string;
}

const seconds = (total: number): string => (total < 90 ? `${total} seconds` : `${Math.round(total / 60)} minutes`);

/**
 * How fast searches reach their results: the median the product measured, or, with nothing measured
 * (or the figures unreadable), only what is always true.
 */
export function speedClaim(stats: PublicLeadStats | undefined): Claim {
  if (!stats || stats.median_seconds_to_results === null || !stats.searches_completed) {
    return { value: 'Live', label: 'results appear as they are found', sentence: 'A larger search takes longer.' };
  }
  const median = seconds(stats.median_seconds_to_results);
  const searches = `${stats.searches_completed.toLocaleString('en-US')} ${stats.searches_completed === 1 ? 'search' : 'searches'}`;
  return {
    value: stats.median_seconds_to_results < 90 ? `${stats.median_seconds_to_results}s` : `${Math.round(stats.median_seconds_to_results / 60)} min`,
    label: `median from search to results (${searches}, last ${stats.period_days} days)`,
    sentence: stats.searches_completed === 1
      ? `Over the last ${stats.period_days} days, the one search with leads had its results in ${median}.`
      : `Over the last ${stats.period_days} days, half of the ${searches} with leads had their results within ${median}.`,
  };
}

/** What the mail check said of delivered emails, or only that every email carries its verdict. */
export function emailCheckClaim(stats: PublicLeadStats | undefined): Claim {
  if (!stats || stats.emails_deliverable_percent === null || !stats.emails_checked) {
    return {
      value: 'Verdict',
      label: 'on every email: deliverable, undeliverable, accept all or unknown',
      sentence: 'Each email carries the verdict of a mail check (deliverable, undeliverable, accept all, or unknown when the check could not tell) and its type (role, personal, free mail, disposable), and you can filter by it.',
    };
  }
  const checked = stats.emails_checked.toLocaleString('en-US');
  return {
    value: `${stats.emails_deliverable_percent}%`,
    label: `of checked emails judged deliverable (last ${stats.period_days} days)`,
    sentence: `Over the last ${stats.period_days} days the mail check judged ${stats.emails_deliverable_percent}% of ${checked} checked emails deliverable; each email carries its verdict, and you can filter by it.`,
  };
}

/** The measured figures; a claim falls back to its plain words while they load or when they fail. */
export function useLeadStats(): PublicLeadStats | undefined {
  return useQuery({ queryKey: ['lead-stats'], queryFn: fetchLeadStats, staleTime: STALE_TIME.lists }).data;
}

/** Whether page fetches go through a proxy: a proxy is mentioned only when one is configured. */
export function useProxyConfigured(): boolean {
  return useQuery({ queryKey: ['scraper-status'], queryFn: fetchScraperStatus, staleTime: STALE_TIME.settings }).data?.proxy_configured ?? false;
}
