import { countOfIndustry, type LeadSearchSummary, type LeadStats, type SearchCoverage } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';

/**
 * What a finished search covered, in words (issue 24): "Searched all of Würzburg: 170 dentists
 * there, 143 new with contact details (97 with a website); 12 you already have were skipped", or
 * "Stopped at your 200 — more exist in Würzburg", or which source failed. Null until the engine has said.
 */
export function coverageSentence(coverage: SearchCoverage | undefined, stats: LeadStats, search: Pick<LeadSearchSummary, 'industry' | 'quantity'>): string | null {
  if (!coverage) return null;
  const area = coverage.area.name;
  const industry = search.industry.toLowerCase();
  const skipped = stats.skipped_owned ? `; ${formatCount(stats.skipped_owned)} you already have were skipped` : '';
  const failed = Object.entries(coverage.sources).filter(([, source]) => source.error).map(([name]) => name);
  const failure = failed.length ? ` The ${failed.join(' and ')} ${failed.length === 1 ? 'source' : 'sources'} could not be searched.` : '';
  if (stats.total_found >= search.quantity) return `Stopped at your ${formatCount(search.quantity)} — more exist in ${area}.${failure}`;
  if (coverage.exhausted) {
    // Every business of the area is counted, those without a contact too: the leads are the ones with one.
    const found = formatCount(stats.total_found);
    const leads = stats.total_found ? `${found} ${skipped ? 'new ' : ''}with contact details (${formatCount(stats.with_website)} with a website)` : `${found} new with contact details`;
    const charged = stats.total_found ? `Charged for those ${found}, not ${formatCount(search.quantity)}.` : 'Nothing charged.';
    return `Searched all of ${area}: ${countOfIndustry(coverage.places_found, industry)} there, ${leads}${skipped}. ${charged}`;
  }
  return `Searched ${area} as far as this search could: ${countOfIndustry(stats.total_found, industry)}${skipped}.${failure}`;
}

/** `coverage`: the search's own (a reopened search's detail carries it beside its stats), else the stats'. */
export function CoverageSentence({ stats, coverage, search, ended }: {
  stats: LeadStats | null;
  coverage?: SearchCoverage | null;
  search?: Pick<LeadSearchSummary, 'industry' | 'quantity'>;
  ended: boolean;
}) {
  const sentence = ended && stats && search ? coverageSentence(coverage ?? stats.coverage, stats, search) : null;
  return sentence ? <p className="muted coverage-sentence" data-testid="coverage-sentence">{sentence}</p> : null;
}
