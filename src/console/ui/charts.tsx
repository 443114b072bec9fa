import type { Tone } from './tone.js';

export interface Segment {
  key: string;
  value: number;
  tone: Tone;
}

/** Legend of a chart's colours. */
export function Legend(props: { items: { label: string; tone: Tone }[] }) {
  return (
    <div class="legend">
      {props.items.map((i) => (
        <span>
          <span class={`swatch tone-${i.tone}`} />
          {i.label}
        </span>
      ))}
    </div>
  );
}

/**
 * Horizontal stacked bars, one row per label (e.g. a webhook kind split by outcome), as inline SVG
 * drawn by the server: no script, no chart library. Each segment names its count on hover.
 */
export function StackedBars(props: { rows: { label: string; segments: Segment[] }[]; title: string }) {
  const width = 640;
  const labelWidth = 170;
  const totalWidth = 56;
  const rowHeight = 26;
  const barHeight = 14;
  const plot = width - labelWidth - totalWidth;
  const max = Math.max(1, ...props.rows.map((r) => r.segments.reduce((a, s) => a + s.value, 0)));
  const height = props.rows.length * rowHeight + 6;
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={props.title}>
      <title>{props.title}</title>
      {props.rows.map((row, i) => {
        const y = i * rowHeight + 4;
        const total = row.segments.reduce((a, s) => a + s.value, 0);
        let x = labelWidth;
        return (
          <g>
            <text x={0} y={y + barHeight - 2}>
              {row.label}
            </text>
            <rect class="tone-empty" x={labelWidth} y={y} width={plot} height={barHeight} rx={3} />
            {row.segments
              .filter((s) => s.value > 0)
              .map((s) => {
                const w = Math.max(2, (s.value / max) * plot);
                const rect = (
                  <rect class={`tone-${s.tone}`} x={x} y={y} width={w} height={barHeight}>
                    <title>{`${row.label}: ${s.value} ${s.key}`}</title>
                  </rect>
                );
                x += w;
                return rect;
              })}
            <text x={width - totalWidth + 8} y={y + barHeight - 2}>
              {total.toLocaleString('en-US')}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface Column {
  label: string;
  value: number;
  tone: Tone;
  title: string;
}

/** Vertical bars over time (e.g. drift found per reconciliation run), oldest on the left. */
export function ColumnChart(props: { columns: Column[]; title: string; unit: string }) {
  // Drawn at about the width it is shown at, so its text stays the page's size.
  const width = 1040;
  const height = 190;
  const left = 34;
  const bottom = 22;
  const top = 10;
  const plotH = height - top - bottom;
  const plotW = width - left - 6;
  const max = Math.max(1, ...props.columns.map((c) => c.value));
  // At most 56 units a run: a few runs stand on the left, as the first of a longer history.
  const slot = Math.min(56, plotW / Math.max(1, props.columns.length));
  const barW = Math.min(28, slot * 0.7);
  const ticks = [0, Math.round(max / 2), max].filter((v, i, a) => a.indexOf(v) === i);
  const yOf = (v: number) => top + plotH - (v / max) * plotH;
  const labelEvery = Math.ceil(props.columns.length / 20);
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={props.title}>
      <title>{props.title}</title>
      {ticks.map((t) => (
        <g>
          <line class="grid-line" x1={left} x2={width - 6} y1={yOf(t)} y2={yOf(t)} />
          <text x={left - 6} y={yOf(t) + 4} text-anchor="end">
            {t}
          </text>
        </g>
      ))}
      <line class="axis" x1={left} x2={width - 6} y1={top + plotH} y2={top + plotH} />
      {props.columns.map((c, i) => {
        const x = left + i * slot + (slot - barW) / 2;
        const h = Math.max(c.value > 0 ? 2 : 0, (c.value / max) * plotH);
        return (
          <g>
            <rect class={`tone-${c.tone}`} x={x} y={top + plotH - h} width={barW} height={h} rx={2}>
              <title>{`${c.title}: ${c.value} ${props.unit}`}</title>
            </rect>
            {i % labelEvery === 0 ? (
              <text x={x + barW / 2} y={height - 6} text-anchor="middle">
                {c.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
