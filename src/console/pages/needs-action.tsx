import { type NeedsAction, needsAction } from '../../admin/needs-action.js';
import type { EventSummary } from '../../inbound/event-views.js';
import { connectionBase } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { Card } from '../ui/detail.js';
import { errorText, fmtNumber } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { pushProblem } from '../ui/push-problem.js';
import { type Column, DataTable } from '../ui/table.js';
import { lastOutcome } from './deliveries.js';
import { deliveryHref } from './deliveries-query.js';
import { eventHref } from './events-query.js';
import { recordHref } from './pushes-list.js';

/** One thing to deal with: what it is, why, in plain words, and the one action that fixes it. */
interface Item {
  what: string;
  href: string;
  cause: string;
  action: string;
  actionHref: string;
}

function eventItems(connection: string, events: EventSummary[], kind: 'quarantined' | 'failed' | 'refused'): Item[] {
  return events.map((e) => {
    const what = `Event ${e.id} · ${e.kind}${e.businessCode ? ` ${e.businessCode}` : ''}`;
    const href = eventHref(connection, e.id);
    if (kind === 'quarantined')
      return {
        what,
        href,
        cause: `Processing cannot read it: ${e.quarantineReason ?? 'see the event'}.`,
        action: 'Correct the payload',
        actionHref: `${href}/edit`,
      };
    if (kind === 'refused')
      return {
        what,
        href,
        cause: `The ERP refused it${e.error ? `: ${e.error}` : ''}.`,
        action: 'Ask the ERP again, or override with a reason',
        actionHref: href,
      };
    return {
      what,
      href,
      cause: `Processing failed${e.error ? `: ${e.error}` : ''}.`,
      action: 'Retry it',
      actionHref: href,
    };
  });
}

function items(connection: string, n: NeedsAction): { title: string; total: number; more: boolean; rows: Item[] }[] {
  return [
    {
      title: 'Quarantined events',
      total: n.quarantined.total,
      more: n.quarantined.more,
      rows: eventItems(connection, n.quarantined.events, 'quarantined'),
    },
    {
      title: 'Events the ERP refused',
      total: n.refused.total,
      more: n.refused.more,
      rows: eventItems(connection, n.refused.events, 'refused'),
    },
    {
      title: 'Failed events',
      total: n.failed.total,
      more: n.failed.more,
      rows: eventItems(connection, n.failed.events, 'failed'),
    },
    {
      title: 'Failed WMS pushes',
      total: n.pushes.total,
      more: n.pushes.more,
      rows: n.pushes.items.map((r) => {
        const p = pushProblem(r);
        const refused = p?.headline.startsWith('The WMS refused') ?? false;
        const href = recordHref(connection, r.entity, r.externalCode);
        return {
          what: `${r.entity} ${r.externalCode}`,
          href,
          cause: p ? `${p.headline} ${p.detail}` : errorText(r.lastError),
          action: refused ? 'Fix it in the ERP, which sends it again' : 'Retry now',
          actionHref: href,
        };
      }),
    },
    {
      title: 'Dead ERP deliveries',
      total: n.deliveries.total,
      more: n.deliveries.total > n.deliveries.items.length,
      rows: n.deliveries.items.map((d) => ({
        what: `Delivery ${d.id} · ${d.type} ${d.orderKey}`,
        href: deliveryHref(connection, d.id),
        cause: `The ERP did not take it after ${d.attempts} attempt(s)${lastOutcome(d) ? `: ${lastOutcome(d)}` : ''}.`,
        action: 'Resend it',
        actionHref: deliveryHref(connection, d.id),
      })),
    },
    {
      title: 'Stock drift',
      total: n.drift?.total ?? 0,
      more: n.drift?.more ?? false,
      rows: (n.drift?.items ?? []).map((i) => {
        const href = `${connectionBase(connection)}/reconciliations/${n.drift!.run}`;
        return {
          what: `${i.productExternalCode}${i.lotCode ? ` lot ${i.lotCode}` : ''}`,
          href,
          cause: `The WMS counts ${i.wms?.existence ?? '—'}, the movements say ${i.expected?.existence ?? '—'} (${i.delta !== null && i.delta > 0 ? '+' : ''}${i.delta ?? '—'}): the feed told the ERP.`,
          action: 'Check the movements in the run',
          actionHref: href,
        };
      }),
    },
  ];
}

const columns: Column<Item>[] = [
  { header: 'What', cell: (i) => <a href={i.href}>{i.what}</a> },
  { header: 'Why', class: 'error', cell: (i) => i.cause },
  {
    header: 'Action',
    class: 'nowrap',
    cell: (i) => (
      <a class="btn small" href={i.actionHref}>
        {i.action}
      </a>
    ),
  },
];

/** GET …/needs-action: one queue of what waits for an operator across the connection. */
export const registerNeedsAction: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/needs-action', async (c) => {
    const connection = pathConnection(c, deps).name;
    const groups = items(connection, await needsAction(deps, connection));
    const total = groups.reduce((n, g) => n + g.total, 0);
    return renderPage(
      c,
      `Needs action · ${connection}`,
      frameFor(c, deps, connection, 'needs-action'),
      <>
        <PageHead
          title="Needs action"
          subtitle={
            total === 0
              ? 'Nothing waits for an operator.'
              : `${fmtNumber(total)} thing(s) wait for an operator: each says why, and what fixes it.`
          }
        />
        {groups
          .filter((g) => g.total > 0)
          .map((g) => (
            <Card title={`${g.title} (${fmtNumber(g.total)}${g.more ? '+' : ''})`}>
              <DataTable label={g.title} columns={columns} rows={g.rows} empty="None." />
            </Card>
          ))}
      </>,
    );
  });
};
