import { type ConnectionOverview, connectionOverview } from '../../admin/overview.js';
import { INBOUND_STATUSES, type PushEntity } from '../../store/index.js';
import { connectionBase, pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderFragment, renderPage } from '../page.js';
import { Badge, HealthDot } from '../ui/badge.js';
import { Legend, StackedBars } from '../ui/charts.js';
import { Card } from '../ui/detail.js';
import { fmtAgo, fmtDuration, fmtNumber } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { Time } from '../ui/time.js';
import { toneOf } from '../ui/tone.js';
import { eventsHref } from './events-query.js';

/** How often the overview refreshes itself (htmx polling of its live fragment). */
export const OVERVIEW_REFRESH_SECONDS = 5;

export const ENTITY_LABELS: Record<PushEntity, string> = {
  product: 'Products',
  'delivery-point': 'Delivery points',
  document: 'Documents',
  'document-cancel': 'Document cancels',
};

/** A number the browser tests compare with the admin API's overview (data-metric names its JSON path). */
function Metric(props: {
  path: string;
  value: number;
  tone?: 'bad' | 'warn' | 'ok' | undefined;
  href?: string | undefined;
}) {
  const cls = `metric${props.tone && props.value > 0 ? ` ${props.tone}` : ''}`;
  const text = fmtNumber(props.value);
  return (
    <div class={cls} data-metric={props.path}>
      {props.href && props.value > 0 ? <a href={props.href}>{text}</a> : text}
    </div>
  );
}

/** The share of this process's calls to the WMS API that failed, on either side. */
export function errorRate(w: { calls: number; callsUnavailable: number; callsRefused: number }): string {
  if (w.calls === 0) return '0%';
  const rate = ((w.callsUnavailable + w.callsRefused) / w.calls) * 100;
  return `${rate < 10 && rate > 0 ? rate.toFixed(1) : Math.round(rate)}%`;
}

function Live(props: { o: ConnectionOverview }) {
  const { o } = props;
  const nowMs = Date.parse(o.at);
  const pushesHref = (state: string, entity?: PushEntity) =>
    `${pageHref(o.connection, 'pushes')}?entity=${entity ?? 'product'}&state=${state}`;
  const firstWith = (state: 'pending' | 'failed') => o.pushes.entities.find((e) => e[state] > 0)?.entity;
  const last = o.reconciliation.last;
  const statuses = INBOUND_STATUSES.filter((s) => o.inbound.totals[s] !== undefined);
  return (
    <>
      <div class="grid cols-4">
        <Card title="Webhooks, last 24 h">
          <Metric
            path="inbound.total"
            value={o.inbound.total}
            href={eventsHref(o.connection, { from: o.inbound.since })}
          />
          <div class="metric-label">
            {statuses
              .filter((s) => s !== 'processed')
              .map((s) => (
                <span>
                  {s}{' '}
                  <strong data-metric={`inbound.totals.${s}`}>
                    {(o.inbound.totals[s] ?? 0) > 0 ? (
                      <a href={eventsHref(o.connection, { status: s, from: o.inbound.since })}>
                        {fmtNumber(o.inbound.totals[s]!)}
                      </a>
                    ) : (
                      '0'
                    )}
                  </strong>
                  {' · '}
                </span>
              ))}
            processed{' '}
            <strong data-metric="inbound.totals.processed">
              {o.inbound.totals.processed > 0 ? (
                <a href={eventsHref(o.connection, { status: 'processed', from: o.inbound.since })}>
                  {fmtNumber(o.inbound.totals.processed)}
                </a>
              ) : (
                '0'
              )}
            </strong>
          </div>
          <div class="metric-label attention">
            waiting for an operator, any age: quarantined{' '}
            <strong data-metric="attention.quarantined">
              {o.attention.quarantined > 0 ? (
                <a href={eventsHref(o.connection, { status: 'quarantined' })}>{fmtNumber(o.attention.quarantined)}</a>
              ) : (
                '0'
              )}
            </strong>
            {' · '}failed{' '}
            <strong data-metric="attention.failed">
              {o.attention.failed > 0 ? (
                <a href={eventsHref(o.connection, { status: 'failed' })}>{fmtNumber(o.attention.failed)}</a>
              ) : (
                '0'
              )}
            </strong>
            {' · '}refused by the ERP{' '}
            <strong data-metric="attention.rejectedByErp">
              {o.attention.rejectedByErp > 0 ? (
                <a href={eventsHref(o.connection, { status: 'rejected_by_erp' })}>
                  {fmtNumber(o.attention.rejectedByErp)}
                </a>
              ) : (
                '0'
              )}
            </strong>
          </div>
        </Card>
        <Card title="Pushes to the WMS">
          <div class="metric-row">
            <div>
              <Metric
                path="pushes.totals.pending"
                value={o.pushes.totals.pending}
                href={pushesHref('pending', firstWith('pending'))}
              />
              <div class="metric-label">pending</div>
            </div>
            <div>
              <Metric
                path="pushes.totals.failed"
                value={o.pushes.totals.failed}
                tone="bad"
                href={pushesHref('failed', firstWith('failed'))}
              />
              <div class="metric-label">failed</div>
            </div>
          </div>
        </Card>
        <Card title="Job queue (service)">
          <div class="metric-row">
            <div>
              <Metric path="queue.waiting" value={o.queue.waiting} />
              <div class="metric-label">
                waiting, <span data-metric="queue.ready">{fmtNumber(o.queue.ready)}</span> ready
              </div>
            </div>
            <div>
              <div class="metric">
                {o.queue.oldestReadyAgeSeconds === null ? '—' : fmtDuration(o.queue.oldestReadyAgeSeconds)}
              </div>
              <div class="metric-label">oldest ready job waits</div>
            </div>
          </div>
          <div class="metric-label">
            running <span data-metric="queue.active">{fmtNumber(o.queue.active)}</span> · dead{' '}
            <span data-metric="queue.dead">{fmtNumber(o.queue.dead)}</span>
          </div>
        </Card>
        <Card title="Last reconciliation">
          {last ? (
            <>
              <Metric
                path="reconciliation.last.driftCount"
                value={last.driftCount}
                tone="bad"
                href={`${connectionBase(o.connection)}/reconciliations/${last.id}`}
              />
              <div class="metric-label">
                drift in <a href={`${connectionBase(o.connection)}/reconciliations/${last.id}`}>run #{last.id}</a>{' '}
                <Badge value={last.status} />
              </div>
              <div class="metric-label">{fmtAgo(last.finishedAt ?? last.startedAt ?? last.requestedAt, nowMs)}</div>
            </>
          ) : (
            <>
              <div class="metric">—</div>
              <div class="metric-label">no run yet</div>
            </>
          )}
        </Card>
      </div>
      <div class="grid cols-3-1">
        <Card title="Webhooks received in the last 24 h, by kind and outcome">
          <StackedBars
            title="Webhooks received in the last 24 hours by kind and outcome"
            rows={o.inbound.kinds.map((k) => ({
              label: k.kind,
              segments: statuses.map((s) => ({ key: s, value: k.counts[s] ?? 0, tone: toneOf(s) })),
            }))}
          />
          <Legend items={statuses.map((s) => ({ label: s, tone: toneOf(s) }))} />
        </Card>
        <Card title="Health">
          <ul class="stat-list">
            <li>
              <HealthDot ok={o.health.store.ok} label="Store" title={o.health.store.message} />
              <span class="muted">{o.health.store.ok ? `${o.health.store.ms} ms` : o.health.store.message}</span>
            </li>
            <li>
              <HealthDot ok={o.health.queue.ok} label="Queue" title={o.health.queue.message} />
              <span class="muted">{o.health.queue.ok ? `${o.health.queue.ms} ms` : o.health.queue.message}</span>
            </li>
            <li>
              <HealthDot ok={o.wms.callsUnavailable + o.wms.callsRefused === 0} label="WMS API" />
              <span class="muted">
                {errorRate(o.wms)} failed: <span data-metric="wms.callsUnavailable">{o.wms.callsUnavailable}</span>{' '}
                unavailable, <span data-metric="wms.callsRefused">{o.wms.callsRefused}</span> refused /{' '}
                <span data-metric="wms.calls">{o.wms.calls}</span> calls
              </span>
            </li>
            <li>
              <HealthDot ok={o.wms.tokenFailures === 0} label="WMS token" />
              <span class="muted">
                <span data-metric="wms.tokenFailures">{o.wms.tokenFailures}</span> errors / {o.wms.tokenRequests}{' '}
                requests
              </span>
            </li>
            <li>
              <span class="muted">Cached token expires</span>
              <span>
                {o.wms.tokenExpiresInSeconds === null
                  ? 'none cached'
                  : `in ${fmtDuration(o.wms.tokenExpiresInSeconds)}`}
              </span>
            </li>
          </ul>
          <p class="hint">Token figures are this process's since it started.</p>
        </Card>
      </div>
      <Card title="WMS pushes by state">
        <div class="table-wrap">
          <table class="data">
            <thead>
              <tr>
                <th>Records</th>
                <th class="num">Pending</th>
                <th class="num">Synced</th>
                <th class="num">Failed</th>
              </tr>
            </thead>
            <tbody>
              {o.pushes.entities.map((e) => (
                <tr>
                  <td>
                    <a href={`${pageHref(o.connection, 'pushes')}?entity=${e.entity}`}>{ENTITY_LABELS[e.entity]}</a>
                  </td>
                  {(['pending', 'synced', 'failed'] as const).map((state) => (
                    <td class="num" data-metric={`pushes.${e.entity}.${state}`}>
                      {e[state] > 0 ? <a href={pushesHref(state, e.entity)}>{fmtNumber(e[state])}</a> : '0'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <p class="hint">
        As of <Time iso={o.at} /> UTC · refreshes every {OVERVIEW_REFRESH_SECONDS} s
      </p>
    </>
  );
}

/** GET …/overview and its live fragment GET …/overview/live (polled by htmx). */
export const registerOverview: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/overview', async (c) => {
    const connection = pathConnection(c, deps);
    const o = await connectionOverview(deps, connection);
    const live = `${connectionBase(connection.name)}/overview/live`;
    return renderPage(
      c,
      `Overview · ${connection.name}`,
      frameFor(c, deps, connection.name, 'overview'),
      <>
        <PageHead
          title="Overview"
          subtitle={`Is everything flowing for connection ${connection.name}? Webhooks in, records out, queue, reconciliation, health.`}
          actions={
            <a class="btn primary" href={pageHref(connection.name, 'needs-action')}>
              Needs action
            </a>
          }
        />
        <div id="overview-live" hx-get={live} hx-trigger={`every ${OVERVIEW_REFRESH_SECONDS}s`} hx-swap="innerHTML">
          <Live o={o} />
        </div>
      </>,
    );
  });

  app.get('/console/connections/:connection/overview/live', async (c) => {
    const connection = pathConnection(c, deps);
    return renderFragment(c, <Live o={await connectionOverview(deps, connection)} />);
  });
};
