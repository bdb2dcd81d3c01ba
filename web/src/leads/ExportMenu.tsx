import { useState } from 'react';
import { exportQueryOf, NO_FILTER, type LeadFilter, type LeadSearchSummary, type LeadsExportFormat } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { Icon } from '../components/Icon';
import { downloadSearchExport } from './leadsApi';

const FORMATS: { format: LeadsExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
  { format: 'xlsx', label: 'Excel' },
];

interface Props {
  search: Pick<LeadSearchSummary, 'id' | 'industry' | 'location' | 'created_at'> | undefined;
  disabled: boolean;
  /** Small buttons named by format, each labelled with the search (a history row); else "Export CSV"... */
  compact?: boolean;
  /** Only these leads (numbers from 1, in delivery order): the buttons say "Export N selected as CSV"... */
  selected?: readonly number[];
  /** The table's filter hides some leads: only those it shows ("Export 3 of 50 as CSV"...). */
  filtered?: { filter: LeadFilter; shown: number; total: number };
  onError(message: string): void;
}

/** The exports of one search, free as often as wanted: CSV, JSON and Excel. */
export function ExportMenu({ search, disabled, compact = false, selected, filtered, onError }: Props) {
  const [exporting, setExporting] = useState<LeadsExportFormat | null>(null);

  const download = async (format: LeadsExportFormat) => {
    if (!search) return;
    setExporting(format);
    onError('');
    try {
      // A selection is exported as its count says (hidden rows too); otherwise what the filter shows.
      await downloadSearchExport(search, format, selected ? exportQueryOf(NO_FILTER, selected) : exportQueryOf(filtered?.filter ?? NO_FILTER));
    } catch (err) {
      onError(errorDetail(err, 'Could not export the leads; please try again.'));
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="export-menu" role="group" aria-label={search && compact ? `Export ${search.industry} in ${search.location}` : selected ? 'Export the selected leads' : filtered ? 'Export the leads shown' : 'Export'}>
      {FORMATS.map(({ format, label }) => (
        <button
          key={format}
          type="button"
          className={`btn btn-secondary${compact ? ' btn-sm' : ''}`}
          disabled={!search || disabled || exporting !== null}
          onClick={() => void download(format)}
          aria-label={compact && search ? `Export ${label} of ${search.industry} in ${search.location}` : undefined}
        >
          {!compact && <Icon name="download" className="icon-sm" />}
          {exporting === format ? 'Exporting…' : compact ? label : selected ? `Export ${selected.length} selected as ${label}` : filtered ? `Export ${filtered.shown} of ${filtered.total} as ${label}` : `Export ${label}`}
        </button>
      ))}
    </div>
  );
}
