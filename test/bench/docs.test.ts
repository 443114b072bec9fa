import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  endMarker,
  formatNumber,
  type ResultsFile,
  renderSection,
  renderSvg,
  renderTable,
  replaceSection,
  startMarker,
} from '../../bench/lib/docs.js';
import { quick } from '../../bench/lib/quick.js';
import { regenerateDocs } from '../../bench/lib/regenerate.js';
import { tempDir } from '../support/tmp.js';

const sample: ResultsFile = {
  bench: 'queue',
  at: '2026-11-26T10:00:00.000Z',
  results: {
    tables: [
      {
        title: 'Queue: 10000 jobs',
        rows: [
          { adapter: 'bare table (baseline)', 'jobs/s': 61292, ratio: 1 },
          { adapter: 'embedded | queue', 'jobs/s': 25458.4, ratio: 0.4153 },
        ],
      },
    ],
    chart: [{ label: 'embedded queue <SQLite> & co', ours: 25458.4, baseline: 61292, unit: 'jobs/s' }],
  },
};

/**
 * Well-formed XML as an SVG viewer needs it: one `svg` root in the SVG namespace, every element
 * closed in order, attributes quoted, text without a bare `<` or `&`; and nothing fetched or run.
 */
function checkSvg(svg: string): void {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg).not.toMatch(/<script|<foreignObject|href=|url\(|@import|@font-face|<style/i);
  const stack: string[] = [];
  const token = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let roots = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = token.exec(svg)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, , selfClosing, text] = m;
    if (text !== undefined) {
      expect(text.replace(/&(amp|lt|gt|quot);/g, '')).not.toMatch(/[&]/);
      if (stack.length === 0) expect(text.trim()).toBe('');
      continue;
    }
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name!);
    } else expect(stack.length).toBeGreaterThan(0);
  }
  expect(consumed).toBe(svg.length);
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

describe('bench docs generator', () => {
  let tmp: ReturnType<typeof tempDir> | undefined;
  afterEach(() => tmp?.remove());

  it('renders a results table as markdown: columns in order, numbers formatted and right-aligned, pipes escaped', () => {
    expect(renderTable(sample.results!.tables![0]!)).toBe(
      [
        '**Queue: 10000 jobs**',
        '',
        '| adapter | jobs/s | ratio |',
        '|---|---:|---:|',
        '| bare table (baseline) | 61,292 | 1 |',
        '| embedded \\| queue | 25,458 | 0.42 |',
        '',
      ].join('\n'),
    );
    expect(formatNumber(2.345678)).toBe('2.35');
    expect(formatNumber(1234567)).toBe('1,234,567');
  });

  it('renders a valid SVG with a bar pair per scenario, labels escaped, for any labels and values', () => {
    const svg = renderSvg('queue: ours vs baseline', sample.results!.chart!);
    checkSvg(svg);
    expect(svg).toContain('embedded queue &lt;SQLite&gt; &amp; co');
    expect(svg).toContain('25,458 jobs/s');
    expect(svg).toContain('61,292 jobs/s');
    expect(svg.match(/<rect /g)).toHaveLength(3 + 2);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            label: fc.string({ maxLength: 80 }),
            ours: fc.double({ noNaN: true, noDefaultInfinity: true }),
            baseline: fc.double({ noNaN: true, noDefaultInfinity: true }),
            unit: fc.string({ maxLength: 8 }),
          }),
          { maxLength: 6 },
        ),
        (chart) => {
          const out = renderSvg(
            't',
            chart.map((c) => ({
              ...c,
              label: c.label.replace(/[\u0000-\u001f\ud800-\udfff]/g, ''),
              unit: c.unit.replace(/[\u0000-\u001f\ud800-\udfff]/g, ''),
            })),
          );
          checkSvg(out);
          for (const w of out.matchAll(/width="(-?[\d.]+)"/g)) expect(Number(w[1])).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('replaces only what is between the markers of the named bench', () => {
    const doc = `# B\n\nprose before\n${startMarker('queue')}\nold table\n${endMarker('queue')}\nprose after\n${startMarker('push')}\npush stays\n${endMarker('push')}\n`;
    const { doc: out, replaced } = replaceSection(doc, 'queue', 'NEW');
    expect(replaced).toBe(true);
    expect(out).toBe(
      `# B\n\nprose before\n${startMarker('queue')}\nNEW\n${endMarker('queue')}\nprose after\n${startMarker('push')}\npush stays\n${endMarker('push')}\n`,
    );
    // Idempotent: a second regeneration gives the same document.
    expect(replaceSection(out, 'queue', 'NEW').doc).toBe(out);
    expect(replaceSection(doc, 'ingest', 'NEW')).toEqual({ doc, replaced: false });
    expect(replaceSection(`${endMarker('queue')}${startMarker('queue')}`, 'queue', 'NEW').replaced).toBe(false);
  });

  it('a section names its run, machine, source and quick mode; results without tables or chart give none', () => {
    const section = renderSection(
      'queue',
      {
        ...sample,
        machine: { node: 'v20.20.2', cpus: 2, cpu: 'AMD EPYC', memGiB: 24, loadavg: [0.42, 1.5] },
        results: { ...sample.results, quick: true },
      },
      'bench/queue.svg',
    )!;
    expect(section).toContain(
      'Run of 2026-11-26 10:00 UTC on 2 vCPU (AMD EPYC), 24 GiB, Node 20.20.2, load average 0.4 → 1.5',
    );
    expect(section).toContain('`bench/results/queue.json`');
    expect(section).toContain('quick mode');
    expect(section).toContain("![queue: wms-sync against the same run's baseline](bench/queue.svg)");
    expect(renderSection('push', { date: '2026-11-26', tables: [] } as ResultsFile)).toBeUndefined();
  });

  it("a section shows the goals it is given as one table, and the bench's own tables otherwise", () => {
    const goals = [
      { goal: 'fast | enough', measured: '10 jobs/s', baseline: 'bare 20/s', met: true },
      { goal: 'p99 < 50 ms', measured: '70 ms', baseline: '', met: false, note: 'latency' },
      { goal: 'drains', measured: 'not in this run', baseline: '', met: undefined },
    ];
    const withGoals = renderSection('queue', sample, undefined, goals)!;
    expect(withGoals).toContain('| goal | measured | baseline (same run) | met |');
    expect(withGoals).toContain('| fast \\| enough | 10 jobs/s | bare 20/s | ✔ |');
    expect(withGoals).toContain('| p99 < 50 ms | 70 ms | – | ✘ (latency) |');
    expect(withGoals).toContain('| drains | not in this run | – | – |');
    expect(withGoals).not.toContain('embedded');
    expect(renderSection('queue', sample)).toContain('| embedded \\| queue | 25,458 | 0.42 |');
  });

  it('regenerates the doc from a results directory: sections with results rewritten, others kept, a warning for each left alone', () => {
    tmp = tempDir('bench-docs');
    const results = join(tmp.dir, 'results');
    mkdirSync(results);
    writeFileSync(join(results, 'widget.json'), JSON.stringify({ ...sample, bench: 'widget' }));
    writeFileSync(join(results, 'push.json'), JSON.stringify({ date: '2026-11-26', rows: [] }));
    writeFileSync(join(results, 'deliver.json'), JSON.stringify({ ...sample, bench: 'deliver' }));
    const docFile = join(tmp.dir, 'benchmarks.md');
    const doc = `intro\n${startMarker('widget')}\nold\n${endMarker('widget')}\n${startMarker('push')}\nhand-written push table\n${endMarker('push')}\n`;
    writeFileSync(docFile, doc);
    const warnings: string[] = [];
    const formatted: string[] = [];
    const done = regenerateDocs({
      resultsDir: results,
      docFile,
      svgDir: join(tmp.dir, 'svg'),
      svgLink: 'bench',
      warn: (m) => warnings.push(m),
      format: (file) => formatted.push(file),
    });
    expect(done).toEqual(['widget']);
    const out = readFileSync(docFile, 'utf8');
    expect(out).toContain('| embedded \\| queue | 25,458 | 0.42 |');
    expect(out).not.toContain('\nold\n');
    expect(out).toContain('hand-written push table');
    expect(warnings).toEqual([expect.stringContaining('deliver'), expect.stringContaining('push.json has no')]);
    expect(formatted).toEqual([docFile]);
    checkSvg(readFileSync(join(tmp.dir, 'svg', 'widget.svg'), 'utf8'));
  });

  it('--quick adds the quick knobs not given, and only when asked', () => {
    const argv = ['node', 'bench.ts', '--quick', '--rows', '5'];
    expect(quick({ rows: '10', fast: true, other: '3' }, argv)).toBe(true);
    expect(argv).toEqual(['node', 'bench.ts', '--rows', '5', '--fast', '--other', '3']);
    const plain = ['node', 'bench.ts'];
    expect(quick({ rows: '10' }, plain)).toBe(false);
    expect(plain).toEqual(['node', 'bench.ts']);
  });
});
