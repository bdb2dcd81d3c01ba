import './dailyChart.css';

const WIDTH = 300;
const HEIGHT = 110;
const TOP = 8;
const BOTTOM = 18;

export type ChartTone = 'primary' | 'success' | 'accent';

/** "Dec 2": the day a chart's axis and its text alternative name. */
export const dayLabel = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * What a screen reader hears for a chart: the total, the busiest day, and how many days had any.
 * The table beside the charts (DailyTable) has every day's figure.
 */
export function chartSummary(title: string, values: number[], dates: string[], format: (n: number) => string): string {
  const total = values.reduce((a, b) => a + b, 0);
  if (values.every((v) => v === 0)) return `${title}: ${format(0)} over the last ${values.length} days, nothing on any day`;
  const busiest = values.indexOf(Math.max(...values));
  const active = values.filter((v) => v !== 0).length;
  return `${title}: ${format(total)} over the last ${values.length} days, on ${active} day${active === 1 ? '' : 's'}; the most on ${dayLabel(dates[busiest])} (${format(values[busiest])})`;
}

/** One figure per UTC day as inline SVG bars (no chart library: the CSP allows no extra scripts). */
export function DailyChart<D extends { date: string }>({ title, days, value, format, tone, testId }: {
  title: string;
  days: D[];
  value(day: D): number;
  format(n: number): string;
  tone: ChartTone;
  testId?: string;
}) {
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const total = values.reduce((a, b) => a + b, 0);
  const slot = WIDTH / Math.max(days.length, 1);
  const plot = HEIGHT - TOP - BOTTOM;
  return (
    <figure className={`daily-chart daily-chart-${tone}`} data-testid={testId}>
      <figcaption>
        <span>{title}</span>
        <strong>{format(total)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={chartSummary(title, values, days.map((d) => d.date), format)} preserveAspectRatio="none">
        <line x1="0" x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="daily-chart-axis" />
        {days.map((day, i) => {
          const h = max > 0 ? (values[i] / max) * plot : 0;
          return (
            <rect key={day.date} x={i * slot + slot * 0.15} width={slot * 0.7} y={HEIGHT - BOTTOM - h} height={Math.max(h, values[i] > 0 ? 1 : 0)} rx="1.5">
              <title>{`${dayLabel(day.date)}: ${format(values[i])}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <div className="daily-chart-range" aria-hidden="true">
          <span>{dayLabel(days[0].date)}</span>
          <span>{dayLabel(days[days.length - 1].date)}</span>
        </div>
      )}
    </figure>
  );
}

/**
 * The charts' text alternative: every day with any figure, newest first, behind a disclosure so the
 * page stays short; a screen reader user opens it like any other button.
 */
export function DailyTable<D extends { date: string }>({ caption, days, columns, testId }: {
  caption: string;
  days: D[];
  columns: { label: string; value(day: D): number; format(n: number): string }[];
  testId?: string;
}) {
  const active = days.filter((day) => columns.some((c) => c.value(day) !== 0)).reverse();
  return (
    <details className="daily-table" data-testid={testId}>
      <summary>{caption} as a table</summary>
      {active.length === 0 ? <p className="muted">Nothing on any day.</p> : (
        // On a phone the table scrolls sideways inside itself; a keyboard user reaches it with Tab to scroll it.
        <div className="daily-table-scroll" tabIndex={0} role="region" aria-label={`${caption}, scrolls sideways`}>
          <table>
            <caption className="visually-hidden">{caption}, days with any activity, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {columns.map((c) => <th key={c.label} scope="col">{c.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {active.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{dayLabel(day.date)}</th>
                  {columns.map((c) => <td key={c.label}>{c.format(c.value(day))}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
