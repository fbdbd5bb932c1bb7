import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { t } from '../../../lib/i18n';
import { type ResultDay, formatDay, formatShortDay } from '../popup-results';

const r = t.popups.admin.results;

/** Series colours: distinct in hue and lightness, each at least 4.5:1 on white. */
export const SERIES = [
  { key: 'shows', name: r.shows, color: '#475569' },
  { key: 'snoozes', name: r.snoozes, color: '#b45309' },
  { key: 'completions', name: r.completions, color: '#047857' },
] as const;

/**
 * Shows, snoozes and completions per day as grouped bars (recharts). Its own chunk, loaded
 * only by the results page: member screens never fetch it. A picture for sighted users; the
 * page's table holds the same figures for everyone else, so the chart is one labelled image
 * with no keyboard stops of its own.
 */
export default function PopupResultsChart({ days }: { days: readonly ResultDay[] }) {
  return (
    <div role="img" aria-label={r.chartLabel} className="h-60 w-full" data-testid="popup-results-chart">
      <div aria-hidden="true" className="size-full">
        <ResponsiveContainer width="100%" height="100%">
        <BarChart data={[...days]} margin={{ top: 8, right: 4, bottom: 0, left: -16 }} accessibilityLayer={false} barCategoryGap="20%">
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#d8dee6" />
          <XAxis dataKey="date" tickFormatter={formatShortDay} tick={{ fontSize: 12, fill: '#4b5563' }} tickLine={false} axisLine={{ stroke: '#d8dee6' }} minTickGap={12} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#4b5563' }} tickLine={false} axisLine={false} width={48} />
          <Tooltip labelFormatter={(label) => formatDay(String(label))} cursor={{ fill: 'rgba(15, 118, 110, 0.08)' }} />
          {/* In the series' order (shows, snoozes, completions), as the table's columns. */}
          <Legend iconType="square" itemSorter={null} wrapperStyle={{ fontSize: 13 }} />
          {SERIES.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          ))}
        </BarChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
