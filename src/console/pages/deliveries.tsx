import {
  type BreakerView,
  breakerOf,
  type DeliverySummary,
  listDeliveries,
  resendDead,
} from '../../erp/delivery/views.js';
import { DELIVERY_STATUSES, FEED_ENTRY_TYPES } from '../../store/values.js';
import type { ConsoleDeps } from '../env.js';
import { connectionBase } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage, setFlash } from '../page.js';
import { ConfirmPanel } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { Card, KeyValues } from '../ui/detail.js';
import { FilterBar } from '../ui/filters.js';
import { fmtNumber, plural } from '../ui/format.js';
import { statusOptions } from '../ui/labels.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { deliveriesFilter, deliveriesHref, deliveriesPageSchema, deliveryHref } from './deliveries-query.js';
import { badQuery } from './errors.js';
import { nonEmpty } from './events-query.js';

/** What the last attempt came to, in one line: the ERP's status, or why no answer came. */
export function lastOutcome(d: DeliverySummary): string {
  if (d.status === 'delivered') return d.lastStatus ? `HTTP ${d.lastStatus}` : '';
  const status = d.lastStatus ? `HTTP ${d.lastStatus}` : '';
  return [status, d.lastError].filter(Boolean).join(': ');
}

function BreakerCard(props: { breaker: BreakerView; configured: boolean }) {
  const b = props.breaker;
  return (
    <Card title="ERP endpoint">
      {props.configured ? (
        <KeyValues
          items={[
            ['Circuit breaker', <Badge value={b.state} />],
            ['Failures in a row', fmtNumber(b.failures)],
            ['Opened (UTC)', <Time iso={b.openedAt} />],
            ['Next probe (UTC)', <Time iso={b.nextProbeAt} />],
          ]}
        />
      ) : (
        <p class="muted">No ERP webhook URL is set for this connection: the ERP reads the feed itself.</p>
      )}
    </Card>
  );
}

function columns(connection: string): Column<DeliverySummary>[] {
  return [
    { header: 'Id', class: 'num', cell: (d) => <a href={deliveryHref(connection, d.id)}>{d.id}</a> },
    { header: 'Created (UTC)', class: 'nowrap', cell: (d) => <Time iso={d.createdAt} /> },
    { header: 'Type', class: 'nowrap', cell: (d) => <span class="mono">{d.type}</span> },
    {
      header: 'Order key',
      cell: (d) => <a href={deliveriesHref(connection, { key: d.orderKey })}>{d.orderKey}</a>,
    },
    { header: 'Status', cell: (d) => <Badge value={d.status} /> },
    { header: 'Attempts', class: 'num', cell: (d) => d.attempts },
    { header: 'Next attempt (UTC)', class: 'nowrap', cell: (d) => <Time iso={d.nextAttemptAt} /> },
    { header: 'Last answer', class: 'error', cell: (d) => lastOutcome(d) },
  ];
}

async function breakerAndConfig(deps: ConsoleDeps, connection: string) {
  return {
    breaker: await breakerOf(deps.store, connection),
    configured: deps.connections.get(connection)?.erpWebhook !== undefined,
  };
}

/** GET …/deliveries?status=&type=&key=: the feed sent to the ERP's webhook, newest first; the bulk resend. */
export const registerDeliveries: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/deliveries', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = deliveriesPageSchema.safeParse(nonEmpty(c.req.query()));
    if (!parsed.success) return badQuery(c, deps, connection, 'deliveries', parsed.error);
    const q = parsed.data;
    const [page, endpoint] = await Promise.all([
      listDeliveries(deps.store, deliveriesFilter(connection, q), {
        limit: q.limit,
        before: q.before ? Number(q.before) : undefined,
      }),
      breakerAndConfig(deps, connection),
    ]);
    const base = `${connectionBase(connection)}/deliveries`;
    return renderPage(
      c,
      `ERP deliveries · ${connection}`,
      frameFor(c, deps, connection, 'deliveries'),
      <>
        <PageHead
          title="ERP deliveries"
          subtitle="Each feed entry sent to the ERP's webhook, signed, with its attempts: dead ones wait for a resend."
          actions={
            q.status === undefined || q.status === 'dead' ? (
              <a class="btn" href={withQuery(`${base}/resend`, { type: q.type, key: q.key })}>
                Resend the dead deliveries of this filter…
              </a>
            ) : undefined
          }
        />
        <BreakerCard {...endpoint} />
        <FilterBar
          action={base}
          selects={[
            {
              name: 'status',
              label: 'Status',
              value: q.status,
              options: statusOptions(DELIVERY_STATUSES, 'Any status'),
            },
            {
              name: 'type',
              label: 'Type',
              value: q.type,
              options: [{ value: '', label: 'Any type' }, ...FEED_ENTRY_TYPES.map((t) => ({ value: t, label: t }))],
            },
          ]}
          inputs={[
            { name: 'key', label: 'Order key', value: q.key, type: 'text', placeholder: 'doc:PO-1 or lot:SKU|LOT' },
          ]}
        />
        <DataTable
          label="ERP deliveries"
          columns={columns(connection)}
          rows={page.deliveries}
          rowId={(d) => d.id}
          empty="No delivery matches these filters for this connection."
        />
        <Pager
          newestHref={q.before ? deliveriesHref(connection, q) : undefined}
          nextHref={page.nextBefore ? deliveriesHref(connection, q, { before: page.nextBefore }) : undefined}
          summary={`${plural(page.total, 'delivery', 'deliveries')} match, newest first`}
        />
      </>,
    );
  });

  app.get('/console/connections/:connection/deliveries/resend', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = deliveriesPageSchema.safeParse(nonEmpty(c.req.query()));
    if (!parsed.success) return badQuery(c, deps, connection, 'deliveries', parsed.error);
    const q = { type: parsed.data.type, key: parsed.data.key };
    const { matched } = await resendDead(deps.store, deliveriesFilter(connection, q), deps.clock.now(), true);
    const fields: Record<string, string> = {};
    if (q.type) fields.type = q.type;
    if (q.key) fields.key = q.key;
    return renderPage(
      c,
      'Resend dead deliveries',
      frameFor(c, deps, connection, 'deliveries'),
      <>
        <PageHead
          title="Resend dead deliveries"
          subtitle="Each goes back to pending with a fresh schedule and the same webhook-id, so an ERP that has it can drop the repeat."
        />
        <ConfirmPanel
          title="Resend the dead deliveries of this filter"
          count={matched}
          what={matched === 1 ? 'dead delivery' : 'dead deliveries'}
          details={
            <KeyValues
              items={[
                ['Type', q.type ?? 'any'],
                ['Order key', q.key ?? 'any'],
                ['Connection', connection],
              ]}
            />
          }
          action={`${connectionBase(connection)}/deliveries/resend`}
          csrf={c.get('session').csrf}
          fields={fields}
          cancelHref={deliveriesHref(connection, { ...q, status: 'dead' })}
          label={`Resend ${fmtNumber(matched)} now`}
        />
      </>,
    );
  });

  app.post('/console/connections/:connection/deliveries/resend', async (c) => {
    const connection = pathConnection(c, deps).name;
    const body = await c.req.parseBody();
    const parsed = deliveriesPageSchema.safeParse(
      nonEmpty({ type: String(body.type ?? ''), key: String(body.key ?? '') }),
    );
    if (!parsed.success) return badQuery(c, deps, connection, 'deliveries', parsed.error);
    const q = { type: parsed.data.type, key: parsed.data.key };
    const result = await resendDead(deps.store, deliveriesFilter(connection, q), deps.clock.now(), false);
    setFlash(c, {
      tone: 'ok',
      message: `${plural(result.resent, 'dead delivery', 'dead deliveries')} sent again.`,
    });
    return c.redirect(deliveriesHref(connection, q), 303);
  });
};
