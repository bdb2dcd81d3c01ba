import type { LocationEstimateResponse } from '@leadforge/contracts';

type Estimate = NonNullable<LocationEstimateResponse['estimate']>;

/** The industry as a plural a sentence can carry: "Dentists" stays, "dentist" becomes "dentists". */
function plural(industry: string, count: number): string {
  const words = industry.trim().toLowerCase();
  if (count === 1 || /s$/.test(words)) return words;
  return /(?:[^aeiou]y)$/.test(words) ? `${words.slice(0, -1)}ies` : `${words}s`;
}

/** "About 40 dentists in Lindenfeld, Germany" (an estimate, before the search is started). */
export function estimateSentence(estimate: Estimate): string {
  if (estimate.count === 0) return `No ${plural(estimate.industry, 0)} listed in ${estimate.short_name} on the map yet`;
  return `About ${estimate.count.toLocaleString('en')} ${plural(estimate.industry, estimate.count)} in ${estimate.short_name}`;
}
