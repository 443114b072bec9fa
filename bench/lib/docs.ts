/**
 * Turns bench results into the figures of docs/benchmarks.md: each results file that carries
 * `tables` (the rows the bench printed) and `chart` (ours against the same run's baseline, one
 * pair per scenario) replaces what is between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`,
 * and gets an SVG bar chart of its own (docs/bench/NAME.svg: plain SVG, no fonts nor scripts to
 * fetch). Results without those fields leave their section as it is, with a warning.
 */
import type { Row } from './report.js';

export interface ResultsTable {
  title: string;
  rows: Row[];
}

export interface ChartBar {
  label: string;
  ours: number;
  baseline: number;
  unit: string;
}

/** One goal of a bench as docs/benchmarks.md shows it (bench/lib/goals.ts reads them from results). */
export interface GoalRow {
  goal: string;
  measured: string;
  baseline: string;
  /** undefined: not measured in this run. */
  met: boolean | undefined;
  /** Which part missed, when a goal has several. */
  note?: string;
}

export interface Machine {
  node?: string;
  cpus?: number;
  cpu?: string;
  memGiB?: number;
  /** 1-minute load average when the bench started and ended. */
  loadavg?: number[];
}

/** What a bench writes (bench/lib/report.ts `writeResults`, or a file of its own with the same fields). */
export interface ResultsFile {
  bench?: string;
  at?: string;
  date?: string;
  machine?: Machine;
  results?: { tables?: ResultsTable[]; chart?: ChartBar[]; quick?: boolean };
  tables?: ResultsTable[];
  chart?: ChartBar[];
  quick?: boolean;
}

export function figuresOf(file: ResultsFile): {
  tables?: ResultsTable[];
  chart?: ChartBar[];
  quick: boolean;
  at?: string;
} {
  const r = file.results ?? {};
  const tables = r.tables ?? file.tables;
  const chart = r.chart ?? file.chart;
  const at = file.at ?? file.date;
  return {
    ...(tables ? { tables } : {}),
    ...(chart ? { chart } : {}),
    quick: (r.quick ?? file.quick) === true,
    ...(at ? { at } : {}),
  };
}

/** A number as the docs show it: thousands separated, two decimals below 100. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(2);
}

const cell = (v: unknown): string =>
  (typeof v === 'number' ? formatNumber(v) : String(v ?? '')).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A markdown table; columns are the keys of the rows in order of appearance, numbers right-aligned. */
export function renderTable(table: ResultsTable): string {
  const columns: string[] = [];
  for (const row of table.rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  if (columns.length === 0) return `**${cell(table.title)}**\n\n(no rows)\n`;
  const numeric = columns.map((c) => table.rows.every((r) => r[c] === undefined || typeof r[c] === 'number'));
  return [
    `**${cell(table.title)}**`,
    '',
    `| ${columns.map(cell).join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`,
    ...table.rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`),
    '',
  ].join('\n');
}

const xml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A horizontal bar chart: per scenario, our bar over the baseline's, both scaled to the larger
 * of the two (units differ between scenarios: req/s, ms, items/s), each labelled with its value.
 */
export function renderSvg(title: string, chart: ChartBar[]): string {
  const width = 800;
  const labelWidth = 300;
  const barMax = width - labelWidth - 190;
  const rowHeight = 16;
  const groupHeight = rowHeight * 2 + 14;
  const top = 44;
  const height = top + chart.length * groupHeight + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${xml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">${xml(title)}</text>`,
    `<rect x="${labelWidth}" y="26" width="10" height="10" fill="#2f6fb0"/><text x="${labelWidth + 14}" y="35">wms-sync</text>`,
    `<rect x="${labelWidth + 90}" y="26" width="10" height="10" fill="#b8b8b8"/><text x="${labelWidth + 104}" y="35">baseline (same run)</text>`,
  ];
  chart.forEach((bar, i) => {
    const y = top + i * groupHeight;
    const max = Math.max(Math.abs(bar.ours), Math.abs(bar.baseline)) || 1;
    const w = (v: number) => Math.max(1, Math.round((Math.abs(v) / max) * barMax));
    const label = bar.label.length > 46 ? `${bar.label.slice(0, 45)}…` : bar.label;
    parts.push(
      `<text x="10" y="${y + rowHeight + 3}">${xml(label)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${w(bar.ours)}" height="${rowHeight - 2}" fill="#2f6fb0"/>`,
      `<text x="${labelWidth + w(bar.ours) + 6}" y="${y + rowHeight - 4}">${xml(`${formatNumber(bar.ours)} ${bar.unit}${bar.baseline ? ` (${formatNumber(bar.ours / bar.baseline)}×)` : ''}`)}</text>`,
      `<rect x="${labelWidth}" y="${y + rowHeight}" width="${w(bar.baseline)}" height="${rowHeight - 2}" fill="#b8b8b8"/>`,
      `<text x="${labelWidth + w(bar.baseline) + 6}" y="${y + 2 * rowHeight - 4}">${xml(`${formatNumber(bar.baseline)} ${bar.unit}`)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export const startMarker = (name: string): string => `<!-- bench:${name} -->`;
export const endMarker = (name: string): string => `<!-- /bench:${name} -->`;

/** `2026-11-27T10:53:30.501Z` → `2026-11-27 10:53 UTC`. */
export function formatAt(at: string | undefined): string {
  const m = at ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(at) : null;
  return m ? `${m[1]} ${m[2]} UTC` : (at ?? 'an unknown date');
}

export function formatMachine(machine: Machine | undefined): string {
  if (!machine) return 'an unrecorded machine';
  const parts = [
    machine.cpus !== undefined ? `${machine.cpus} vCPU${machine.cpu ? ` (${machine.cpu})` : ''}` : machine.cpu,
    machine.memGiB !== undefined ? `${machine.memGiB} GiB` : undefined,
    machine.node ? `Node ${machine.node.replace(/^v/, '')}` : undefined,
    machine.loadavg?.length ? `load average ${machine.loadavg.map((l) => l.toFixed(1)).join(' → ')}` : undefined,
  ];
  return parts.filter(Boolean).join(', ');
}

const MET = (row: GoalRow) => (row.met === undefined ? '–' : row.met ? '✔' : `✘${row.note ? ` (${row.note})` : ''}`);

/** A bench's goals as one markdown table: goal, figure, same-run baseline, met. */
export function renderGoals(rows: GoalRow[]): string {
  return [
    '| goal | measured | baseline (same run) | met |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${cell(r.goal)} | ${cell(r.measured)} | ${cell(r.baseline || '–')} | ${MET(r)} |`),
    '',
  ].join('\n');
}

/**
 * The generated part of a bench's section: where and when it ran, its goals against the same
 * run's baselines (or, for a bench without a goal reader, the tables it printed), and its chart.
 */
export function renderSection(
  name: string,
  file: ResultsFile,
  svgPath?: string,
  goals?: GoalRow[],
): string | undefined {
  const figures = figuresOf(file);
  if (!figures.tables || !figures.chart) return undefined;
  return [
    `Run of ${formatAt(figures.at)} on ${formatMachine(file.machine)}; \`bench/results/${name}.json\`${figures.quick ? ' (**quick mode**: short parameters, not comparable with full runs)' : ''}.`,
    '',
    ...(goals ? [renderGoals(goals)] : figures.tables.map(renderTable)),
    ...(svgPath ? [`![${name}: wms-sync against the same run's baseline](${svgPath})`, ''] : []),
  ].join('\n');
}

/**
 * Replaces what is between the two markers of `name` (the markers stay). Returns the document
 * unchanged and `false` when the markers are missing or out of order.
 */
export function replaceSection(doc: string, name: string, content: string): { doc: string; replaced: boolean } {
  const start = doc.indexOf(startMarker(name));
  const end = doc.indexOf(endMarker(name));
  if (start < 0 || end < start) return { doc, replaced: false };
  const from = start + startMarker(name).length;
  return { doc: `${doc.slice(0, from)}\n${content.trimEnd()}\n${doc.slice(end)}`, replaced: true };
}
