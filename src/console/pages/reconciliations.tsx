import { pageQuery } from '../../admin/routes/params.js';
import { listRuns, type RunSummary } from '../../reconcile/list-runs.js';
import { requestRun } from '../../reconcile/request.js';
import { connectionBase, pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage, setFlash } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { ColumnChart, Legend } from '../ui/charts.js';
import { Card } from '../ui/detail.js';
import { fmtDuration, fmtTime } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { badQuery } from './errors.js';

export function runHref(connection: string, id: number): string {
  return `${connectionBase(connection)}/reconciliations/${id}`;
}

export function runDuration(run: Pick<RunSummary, 'startedAt' | 'finishedAt'>): string {
  return run.startedAt && run.finishedAt
    ? fmtDuration((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)
    : '—';
}

/** GET …/reconciliations (runs, drift per run over time) and POST …/reconciliations (start one). */
export const registerReconciliations: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/reconciliations', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = pageQuery.safeParse(c.req.query());
    if (!parsed.success) return badQuery(c, deps, connection, 'reconciliation', parsed.error);
    const page = await listRuns(deps.store, { connection, ...parsed.data });
    const base = pageHref(connection, 'reconciliation');
    const columns: Column<RunSummary>[] = [
      { header: 'Run', cell: (r) => <a href={runHref(connection, r.id)}>#{r.id}</a> },
      { header: 'Status', cell: (r) => <Badge value={r.status} /> },
      { header: 'Trigger', cell: (r) => r.trigger },
      { header: 'Requested (UTC)', class: 'nowrap', cell: (r) => <Time iso={r.requestedAt} /> },
      { header: 'Took', class: 'num', cell: (r) => runDuration(r) },
      { header: 'Rows checked', class: 'num', cell: (r) => r.rowsChecked.toLocaleString('en-US') },
      {
        header: 'Drift',
        class: 'num',
        cell: (r) => (r.driftCount > 0 ? <strong class="error-text">{r.driftCount}</strong> : '0'),
      },
      { header: 'Not found', class: 'num', cell: (r) => r.notFoundCount },
      { header: 'Unsettled', class: 'num', cell: (r) => r.unsettledCount },
      { header: 'Reason', class: 'error', cell: (r) => r.reason ?? '' },
    ];
    const chronological = [...page.runs].reverse();
    return renderPage(
      c,
      `Reconciliation · ${connection}`,
      frameFor(c, deps, connection, 'reconciliation'),
      <>
        <PageHead
          title="Reconciliation"
          subtitle="The WMS's stock compared with what wms-sync learnt from webhooks; each confirmed drift goes to the ERP feed as stock.drift."
          actions={
            <ActionButton action={base} csrf={c.get('session').csrf} label="Start a reconciliation" variant="primary" />
          }
        />
        <Card title="Drift found per run">
          {chronological.length === 0 ? (
            <p class="muted">No run yet.</p>
          ) : (
            <>
              <ColumnChart
                title="Drift found per reconciliation run, oldest on the left"
                unit="drift"
                columns={chronological.map((r) => ({
                  label: `#${r.id}`,
                  value: r.driftCount,
                  tone: r.status === 'failed' || r.status === 'partial' ? 'warn' : 'bad',
                  title: `Run #${r.id} ${r.status}, ${fmtTime(r.requestedAt)}`,
                }))}
              />
              <Legend
                items={[
                  { label: 'drift of a completed run', tone: 'bad' },
                  { label: 'partial or failed run', tone: 'warn' },
                ]}
              />
            </>
          )}
        </Card>
        <DataTable
          columns={columns}
          rows={page.runs}
          rowId={(r) => r.id}
          empty="No reconciliation run for this connection yet."
        />
        <Pager
          newestHref={parsed.data.before ? base : undefined}
          nextHref={page.nextBefore ? withQuery(base, { before: page.nextBefore }) : undefined}
          summary={`${page.runs.length} run(s) shown, newest first`}
        />
      </>,
    );
  });

  app.post('/console/connections/:connection/reconciliations', async (c) => {
    const connection = pathConnection(c, deps).name;
    const { run, created } = await requestRun(deps, connection, 'api');
    setFlash(c, {
      tone: 'ok',
      message: created
        ? `Run #${run.id} queued: it starts as soon as a worker takes it.`
        : `Run #${run.id} was already waiting to start: here it is.`,
    });
    return c.redirect(runHref(connection, run.id), 303);
  });
};
