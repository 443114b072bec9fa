import { getRun } from '../../reconcile/get-run.js';
import { runQuerySchema } from '../../reconcile/routes/schemas.js';
import type { ReconciliationRunView } from '../../reconcile/view.js';
import { connectionBase, pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderFragment, renderPage } from '../page.js';
import { Badge } from '../ui/badge.js';
import { Card, KeyValues } from '../ui/detail.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { badQuery, errorPage } from './errors.js';
import { runDuration, runHref } from './reconciliations.js';

const ITEMS_PAGE = 100;
const FINISHED = new Set(['completed', 'partial', 'failed']);
type Item = ReconciliationRunView['items'][number];
const figure = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

function RunBody(props: { run: ReconciliationRunView; connection: string; itemsAfter: number }) {
  const { run } = props;
  const columns: Column<Item>[] = [
    { header: 'Product', cell: (i) => <span class="mono">{i.productExternalCode}</span> },
    { header: 'Lot', cell: (i) => i.lotCode ?? '—' },
    { header: 'Finding', cell: (i) => <Badge value={i.status} /> },
    { header: 'WMS existence', class: 'num', cell: (i) => figure(i.wms?.existence) },
    { header: 'Expected', class: 'num', cell: (i) => figure(i.expected?.existence) },
    { header: 'Baseline', class: 'num', cell: (i) => figure(i.expected?.baseline) },
    { header: 'Movements', class: 'num', cell: (i) => figure(i.expected?.movements) },
    {
      header: 'Delta',
      class: 'num',
      cell: (i) =>
        i.delta === null ? (
          '—'
        ) : (
          <strong class={i.delta === 0 ? '' : 'error-text'}>{i.delta > 0 ? `+${i.delta}` : i.delta}</strong>
        ),
    },
    { header: 'Observed (UTC)', class: 'nowrap', cell: (i) => <Time iso={i.observedAt} /> },
  ];
  const here = runHref(props.connection, run.id);
  return (
    <>
      <div class="grid cols-2">
        <Card title="Run">
          <KeyValues
            items={[
              ['Status', <Badge value={run.status} />],
              ['Trigger', run.trigger],
              ['Requested (UTC)', <Time iso={run.requestedAt} />],
              [
                'Started / finished',
                <>
                  <Time iso={run.startedAt} /> → <Time iso={run.finishedAt} />
                </>,
              ],
              ['Took', runDuration(run)],
              ['Reason', run.reason ?? '—'],
            ]}
          />
        </Card>
        <Card title="Counts">
          <KeyValues
            items={[
              [
                'Products',
                `${run.productsChecked.toLocaleString('en-US')} checked of ${figure(run.productsTotal)} (${run.productsFailed} failed)`,
              ],
              [
                'Rows compared',
                `${run.rowsChecked.toLocaleString('en-US')} (${run.rowsRechecked} rechecked after the settle window)`,
              ],
              ['Drift', <strong data-metric="driftCount">{run.driftCount}</strong>],
              ['Not found in the WMS', String(run.notFoundCount)],
              ['Still moving', String(run.unsettledCount)],
              ['WMS requests', String(run.requests)],
            ]}
          />
        </Card>
      </div>
      <h2>Findings</h2>
      <DataTable
        columns={columns}
        rows={run.items}
        rowId={(i) => i.id}
        empty={FINISHED.has(run.status) ? 'Every row matched: no drift.' : 'Nothing found yet.'}
      />
      <Pager
        newestHref={props.itemsAfter > 0 ? here : undefined}
        nextHref={run.nextItemsAfter ? withQuery(here, { itemsAfter: run.nextItemsAfter }) : undefined}
        summary={`${run.items.length} finding(s) shown`}
      />
    </>
  );
}

/** GET …/reconciliations/{id} (a run and its drift table; refreshes itself until the run ends). */
export const registerReconciliationRun: PageRegistrar = (app, deps) => {
  const load = async (connection: string, id: string, query: Record<string, string>) => {
    const parsed = runQuerySchema.safeParse({ itemsLimit: ITEMS_PAGE, ...query });
    const runId = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : undefined;
    if (!parsed.success) return { error: parsed.error } as const;
    const run = runId ? await getRun(deps.store, { connection, id: runId, ...parsed.data }) : undefined;
    return { run, itemsAfter: parsed.data.itemsAfter } as const;
  };

  app.get('/console/connections/:connection/reconciliations/:id', async (c) => {
    const connection = pathConnection(c, deps).name;
    const loaded = await load(connection, c.req.param('id'), c.req.query());
    if ('error' in loaded) return badQuery(c, deps, connection, 'reconciliation', loaded.error!);
    const { run, itemsAfter } = loaded;
    if (!run)
      return errorPage(
        c,
        deps,
        404,
        'Not found',
        `No reconciliation run ${c.req.param('id')} for connection ${connection}`,
      );
    const running = !FINISHED.has(run.status);
    return renderPage(
      c,
      `Run #${run.id} · ${connection}`,
      frameFor(c, deps, connection, 'reconciliation'),
      <>
        <PageHead
          crumbs={
            <>
              <a href={pageHref(connection, 'reconciliation')}>Reconciliation</a> /
            </>
          }
          title={`Run #${run.id}`}
          subtitle={
            running ? 'Running: this page follows it.' : 'Each drift below was sent to the ERP feed as stock.drift.'
          }
        />
        <div
          id="run-live"
          {...(running
            ? { 'hx-get': `${runHref(connection, run.id)}/live`, 'hx-trigger': 'every 2s', 'hx-swap': 'outerHTML' }
            : {})}
        >
          <RunBody run={run} connection={connection} itemsAfter={itemsAfter} />
        </div>
      </>,
    );
  });

  // While the run goes on, the fragment replaces itself (polling stops once the run has ended).
  app.get('/console/connections/:connection/reconciliations/:id/live', async (c) => {
    const connection = pathConnection(c, deps).name;
    const loaded = await load(connection, c.req.param('id'), {});
    if ('error' in loaded || !loaded.run) return c.body(null, 404);
    const { run } = loaded;
    const running = !FINISHED.has(run.status);
    return renderFragment(
      c,
      <div
        id="run-live"
        {...(running
          ? {
              'hx-get': `${connectionBase(connection)}/reconciliations/${run.id}/live`,
              'hx-trigger': 'every 2s',
              'hx-swap': 'outerHTML',
            }
          : {})}
      >
        <RunBody run={run} connection={connection} itemsAfter={0} />
      </div>,
    );
  });
};
