import type { DailyFigures } from '@leadforge/contracts';

const WIDTH = 300;
const HEIGHT = 110;
const TOP = 8;
const BOTTOM = 18;

/** One figure per day of the last 30 days as inline SVG bars (no chart library: the CSP allows no extra scripts). */
export function DailyChart({ title, days, value, format, tone }: {
  title: string;
  days: DailyFigures[];
  value(day: DailyFigures): number;
  format(n: number): string;
  tone: 'primary' | 'success' | 'accent';
}) {
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const total = values.reduce((a, b) => a + b, 0);
  const slot = WIDTH / Math.max(days.length, 1);
  const plot = HEIGHT - TOP - BOTTOM;
  const label = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return (
    <figure className={`admin-chart admin-chart-${tone}`}>
      <figcaption>
        <span>{title}</span>
        <strong>{format(total)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: ${format(total)} over the last ${days.length} days`} preserveAspectRatio="none">
        <line x1="0" x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="admin-chart-axis" />
        {days.map((day, i) => {
          const h = max > 0 ? (values[i] / max) * plot : 0;
          return (
            <rect key={day.date} x={i * slot + slot * 0.15} width={slot * 0.7} y={HEIGHT - BOTTOM - h} height={Math.max(h, values[i] > 0 ? 1 : 0)} rx="1.5">
              <title>{`${label(day.date)}: ${format(values[i])}`}</title>
            </rect>
          );
        })}
        {days.length > 0 && (
          <>
            <text x="0" y={HEIGHT - 4} className="admin-chart-label">{label(days[0].date)}</text>
            <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="admin-chart-label">{label(days[days.length - 1].date)}</text>
          </>
        )}
      </svg>
    </figure>
  );
}
