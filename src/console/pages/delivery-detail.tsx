import { type AttemptView, deliveryDetail, resendOne } from '../../erp/delivery/views.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage, setFlash } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { Card, KeyValues } from '../ui/detail.js';
import { JsonBlock } from '../ui/json.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { lastOutcome } from './deliveries.js';
import { deliveriesHref, deliveryHref } from './deliveries-query.js';
import { errorPage } from './errors.js';

const attemptColumns: Column<AttemptView>[] = [
  { header: 'When (UTC)', class: 'nowrap', cell: (a) => <Time iso={a.at} /> },
  { header: 'Outcome', cell: (a) => <Badge value={a.outcome} /> },
  { header: 'HTTP', class: 'num', cell: (a) => a.status ?? '—' },
  { header: 'Took', class: 'num', cell: (a) => `${a.latencyMs} ms` },
  { header: 'Probe', cell: (a) => (a.probe ? 'breaker probe' : '') },
  { header: 'Answer or error', class: 'error', cell: (a) => [a.error, a.response].filter(Boolean).join(' · ') },
];

/** A delivery of this connection, or undefined (another connection's is not shown: a 404 as an unknown one). */
async function ownDelivery(deps: Parameters<PageRegistrar>[1], connection: string, raw: string) {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return undefined;
  const detail = await deliveryDetail(deps.store, Number(raw));
  return detail && detail.delivery.connection === connection ? detail : undefined;
}

/** GET …/deliveries/{id}: its state, every attempt, the body the ERP receives; POST …/resend. */
export const registerDeliveryDetail: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/deliveries/:id{[0-9]+}', async (c) => {
    const connection = pathConnection(c, deps).name;
    const detail = await ownDelivery(deps, connection, c.req.param('id'));
    if (!detail) return errorPage(c, deps, 404, 'Not found', `No delivery ${c.req.param('id')} for ${connection}`);
    const d = detail.delivery;
    const href = deliveryHref(connection, d.id);
    return renderPage(
      c,
      `Delivery ${d.id} · ${connection}`,
      frameFor(c, deps, connection, 'deliveries'),
      <>
        <PageHead
          crumbs={
            <>
              <a href={deliveriesHref(connection, {})}>ERP deliveries</a> /
            </>
          }
          title={`Delivery ${d.id}`}
          subtitle={<Badge value={d.status} />}
          actions={
            d.status !== 'pending' ? (
              <ActionButton
                action={`${href}/resend`}
                csrf={c.get('session').csrf}
                label="Resend"
                variant={d.status === 'dead' ? 'primary' : 'default'}
              />
            ) : undefined
          }
        />
        <div class="grid cols-2">
          <Card title="Delivery">
            <KeyValues
              items={[
                ['Status', <Badge value={d.status} />],
                ['Type', <span class="mono">{d.type}</span>],
                ['Order key', <a href={deliveriesHref(connection, { key: d.orderKey })}>{d.orderKey}</a>],
                [
                  'Feed entry',
                  <a href={`/console/connections/${encodeURIComponent(connection)}/feed?after=${d.feedEntryId - 1}`}>
                    {d.feedEntryId}
                  </a>,
                ],
                ['webhook-id', <span class="mono">{d.webhookId}</span>],
                ['Attempts', String(d.attempts)],
                ['Next attempt (UTC)', <Time iso={d.nextAttemptAt} />],
                ['Delivered (UTC)', <Time iso={d.deliveredAt} />],
                ['Last answer', lastOutcome(d) || '—'],
                ['Created (UTC)', <Time iso={d.createdAt} />],
              ]}
            />
          </Card>
          <Card title="The body the ERP receives">
            {detail.entry ? <JsonBlock value={detail.entry} /> : <p class="muted">Pruned by retention.</p>}
          </Card>
        </div>
        <h2>Attempts</h2>
        <DataTable label="Attempts" columns={attemptColumns} rows={detail.attempts} empty="Not attempted yet." />
      </>,
    );
  });

  app.post('/console/connections/:connection/deliveries/:id{[0-9]+}/resend', async (c) => {
    const connection = pathConnection(c, deps).name;
    const detail = await ownDelivery(deps, connection, c.req.param('id'));
    if (!detail) return errorPage(c, deps, 404, 'Not found', `No delivery ${c.req.param('id')} for ${connection}`);
    const result = await resendOne(deps.store, detail.delivery.id, deps.clock.now());
    setFlash(
      c,
      result.ok
        ? { tone: 'ok', message: `Delivery ${detail.delivery.id} is pending again, due now.` }
        : { tone: 'info', message: `Delivery ${detail.delivery.id} is pending: it is on its way already.` },
    );
    return c.redirect(deliveryHref(connection, detail.delivery.id), 303);
  });
};
