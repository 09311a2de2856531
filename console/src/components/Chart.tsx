import { useId } from 'preact/hooks';
import { formatNumber, t } from '../i18n';
import { DataTable } from './DataTable';

/** One bar of a chart: its label and its value, with the text shown for the value. */
export interface ChartBar {
  label: string;
  value: number;
  /** The value as read (a percent, a count); defaults to the number. */
  text?: string;
}

const BAR_HEIGHT = 22;
const GAP = 8;
const LABEL_WIDTH = 130;
const VALUE_WIDTH = 70;
const WIDTH = 480;

/** A label cut to fit the label column of the drawing (the full text is in the table). */
function short(text: string, max = 18): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A horizontal bar chart drawn as SVG (no chart library: the console stays
 * small). The drawing is one image named by `title` and a sentence listing
 * every value, and a folded table under it gives the same numbers to a
 * screen reader or to anyone who wants them exact. `max` fixes the scale
 * (1 for shares); else the largest value fills the width.
 */
export function BarChart({
  title,
  bars,
  max,
  valueHeading,
}: {
  title: string;
  bars: ChartBar[];
  max?: number;
  valueHeading: string;
}) {
  const titleId = useId();
  const scale = max ?? Math.max(1, ...bars.map((bar) => bar.value));
  const plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const height = Math.max(1, bars.length) * (BAR_HEIGHT + GAP);
  const textOf = (bar: ChartBar) => bar.text ?? formatNumber(bar.value);
  const summary = bars.map((bar) => `${bar.label}: ${textOf(bar)}`).join('; ');
  if (bars.length === 0) {
    return (
      <figure class="chart">
        <figcaption>{title}</figcaption>
        <p class="muted">{t('chart.empty')}</p>
      </figure>
    );
  }
  return (
    <figure class="chart">
      <figcaption id={titleId}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={`${titleId}-t`}
        aria-describedby={`${titleId}-d`}
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={`${titleId}-t`}>{title}</title>
        <desc id={`${titleId}-d`}>{summary}</desc>
        {bars.map((bar, index) => {
          const y = index * (BAR_HEIGHT + GAP);
          const width = scale > 0 ? Math.max(0, Math.min(1, bar.value / scale)) * plot : 0;
          return (
            <g key={bar.label}>
              <text x={LABEL_WIDTH - 6} y={y + BAR_HEIGHT / 2} class="chart-label">
                {short(bar.label)}
              </text>
              <rect x={LABEL_WIDTH} y={y} width={plot} height={BAR_HEIGHT} class="chart-track" />
              <rect x={LABEL_WIDTH} y={y} width={width} height={BAR_HEIGHT} class="chart-bar" />
              <text x={LABEL_WIDTH + plot + 6} y={y + BAR_HEIGHT / 2} class="chart-value">
                {textOf(bar)}
              </text>
            </g>
          );
        })}
      </svg>
      <ChartTable title={title} heading={valueHeading} rows={bars.map((bar) => [bar.label, textOf(bar)])} />
    </figure>
  );
}

/**
 * Columns over time (one per day, oldest first) drawn as SVG: volume at a
 * glance, the first and last day under the axis, and the exact numbers in
 * the folded table under it.
 */
export function ColumnChart({
  title,
  columns,
  valueHeading,
  labelHeading,
}: {
  title: string;
  columns: ChartBar[];
  valueHeading: string;
  labelHeading: string;
}) {
  const titleId = useId();
  const height = 120;
  const axis = 18;
  const top = Math.max(1, ...columns.map((column) => column.value));
  const step = WIDTH / Math.max(1, columns.length);
  const total = columns.reduce((sum, column) => sum + column.value, 0);
  const first = columns[0];
  const last = columns[columns.length - 1];
  return (
    <figure class="chart">
      <figcaption id={titleId}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height + axis}`}
        role="img"
        aria-labelledby={`${titleId}-t`}
        aria-describedby={`${titleId}-d`}
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={`${titleId}-t`}>{title}</title>
        <desc id={`${titleId}-d`}>
          {t('chart.columnsSummary', {
            count: columns.length,
            total: formatNumber(total),
            top: formatNumber(top),
          })}
        </desc>
        <g>
          <line x1={0} y1={height} x2={WIDTH} y2={height} class="chart-axis" />
          {columns.map((column, index) => {
            const h = (column.value / top) * (height - 14);
            return (
              <rect
                key={column.label}
                x={index * step + step * 0.15}
                y={height - h}
                width={Math.max(1, step * 0.7)}
                height={h}
                class="chart-bar"
              />
            );
          })}
          <text x={0} y={10} class="chart-scale">
            {formatNumber(top)}
          </text>
          {first && (
            <text x={0} y={height + axis - 4} class="chart-scale">
              {first.label}
            </text>
          )}
          {last && columns.length > 1 && (
            <text x={WIDTH} y={height + axis - 4} class="chart-scale chart-end">
              {last.label}
            </text>
          )}
        </g>
      </svg>
      <ChartTable
        title={title}
        heading={valueHeading}
        labelHeading={labelHeading}
        rows={columns.map((column) => [column.label, column.text ?? formatNumber(column.value)])}
      />
    </figure>
  );
}

/** The numbers of a chart in a folded table, for screen readers and exact reading. */
function ChartTable({
  title,
  heading,
  labelHeading,
  rows,
}: {
  title: string;
  heading: string;
  labelHeading?: string;
  rows: [string, string][];
}) {
  return (
    <details class="chart-data">
      <summary>{t('chart.showData', { title })}</summary>
      <DataTable caption={title} columns={[labelHeading ?? t('chart.item'), heading]}>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </DataTable>
    </details>
  );
}
