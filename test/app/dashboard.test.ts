import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../../src/lib/listen.js';
import { fromRoot } from '../../src/lib/package-root.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

const DASHBOARD = fromRoot('deploy/grafana/wms-sync.json');
const RULES = fromRoot('deploy/prometheus/alerts.yml');
/** Series Prometheus makes itself for every scrape target. */
const SCRAPE_SERIES = new Set(['up']);

/** The sample names a Prometheus text exposition can hold, from its `# TYPE` lines. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const m = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, type] = m as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

/**
 * The metric names a PromQL expression reads: what is left once label matchers, ranges, strings,
 * grouping clauses and function calls are taken out.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\b\d[\d.]*(?:ms|[smhdwy])?\b/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?/g)) {
    const [token, call] = [m[0].replace(/\s*\($/, ''), m[1]];
    if (call || /^(?:and|or|unless|bool|offset|inf|nan)$/i.test(token)) continue;
    names.push(token);
  }
  return names;
}

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

function dashboardQueries(): { panel: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  const out: { panel: string; expr: string }[] = [];
  const walk = (panels: Panel[]) => {
    for (const p of panels) {
      for (const t of p.targets ?? []) if (t.expr) out.push({ panel: p.title ?? '?', expr: t.expr });
      walk(p.panels ?? []);
    }
  };
  walk(dashboard.panels);
  return out;
}

function ruleExpressions(): { panel: string; expr: string }[] {
  const text = readFileSync(RULES, 'utf8');
  return [...text.matchAll(/- alert: (\S+)\n\s+expr: (.+)\n/g)].map((m) => ({ panel: m[1]!, expr: m[2]! }));
}

describe('the Grafana dashboard and the alert rules read only metrics the service exports', () => {
  let svc: TestService;
  let http: Listening;
  let exported: Set<string>;

  beforeAll(async () => {
    // Every room's jobs registered, as `serve` runs them (ERP delivery included): their metrics are on the registry.
    const acme = testConnection('acme', {
      erpWebhookUrl: 'http://127.0.0.1:9/erp',
      erpWebhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    svc = await startTestService({ label: 'dashboard', worker: true, connections: [acme] });
    http = await listen(svc.app.fetch, { port: 0, host: '127.0.0.1' });
    const res = await fetch(`${http.url}/metrics`);
    expect(res.status).toBe(200);
    exported = exportedNames(await res.text());
  });
  afterAll(async () => {
    await http?.close();
    await svc?.close();
  });

  it('finds the names in PromQL (a histogram read through _bucket, _sum or _count is its own name)', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, kind) (rate(a_seconds_bucket{job=~"x", route=~"/w/.*"}[5m]))) > on (kind) b or c offset 5m',
      ),
    ).toEqual(['a_seconds_bucket', 'b', 'c']);
    expect(exportedNames('# TYPE h histogram\n# TYPE c counter\n')).toEqual(
      new Set(['h', 'h_bucket', 'h_sum', 'h_count', 'c']),
    );
  });

  it('every dashboard query names exported metrics', () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(30);
    const unknown = queries.flatMap((q) =>
      metricNames(q.expr)
        .filter((n) => !exported.has(n) && !SCRAPE_SERIES.has(n))
        .map((n) => `${q.panel}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });

  it('every alert rule names exported metrics', () => {
    const rules = ruleExpressions();
    expect(rules.length).toBe(15);
    const unknown = rules.flatMap((r) =>
      metricNames(r.expr)
        .filter((n) => !exported.has(n) && !SCRAPE_SERIES.has(n))
        .map((n) => `${r.panel}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });

  it('a name the service does not export is caught', () => {
    expect(metricNames('sum(rate(wms_sync_no_such_metric_total[5m]))').filter((n) => !exported.has(n))).toEqual([
      'wms_sync_no_such_metric_total',
    ]);
  });
});
