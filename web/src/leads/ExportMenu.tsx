import { useState } from 'react';
import type { LeadSearchSummary, LeadsExportFormat } from '@leadforge/contracts';
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
  onError(message: string): void;
}

/** The exports of one search, free as often as wanted: CSV, JSON and Excel. */
export function ExportMenu({ search, disabled, compact = false, selected, onError }: Props) {
  const [exporting, setExporting] = useState<LeadsExportFormat | null>(null);

  const download = async (format: LeadsExportFormat) => {
    if (!search) return;
    setExporting(format);
    onError('');
    try {
      await downloadSearchExport(search, format, selected);
    } catch (err) {
      onError(errorDetail(err, 'Could not export the leads; please try again.'));
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="export-menu" role="group" aria-label={search && compact ? `Export ${search.industry} in ${search.location}` : selected ? 'Export the selected leads' : 'Export'}>
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
          {exporting === format ? 'Exporting…' : compact ? label : selected ? `Export ${selected.length} selected as ${label}` : `Export ${label}`}
        </button>
      ))}
    </div>
  );
}
