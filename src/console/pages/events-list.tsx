import { EDITABLE_STATUSES } from '../../inbound/correct-event.js';
import { listEventsCapped } from '../../inbound/event-list-page.js';
import type { EventSummary } from '../../inbound/event-views.js';
import { BULK_RETRY_STATUSES } from '../../inbound/retry-event.js';
import { INBOUND_STATUSES } from '../../store/index.js';
import { WEBHOOK_KINDS } from '../../wms/webhooks.js';
import { connectionBase } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { FilterBar } from '../ui/filters.js';
import { fmtNumber, plural } from '../ui/format.js';
import { statusOptions } from '../ui/labels.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { badQuery } from './errors.js';
import {
  eventHref,
  eventsHref,
  eventsPageSchema,
  filterParams,
  inboxFilter,
  localInput,
  nonEmpty,
} from './events-query.js';

/** The line an operator reads first: why it needs them (quarantine reason, last error). */
export function eventProblem(e: EventSummary): string {
  if (e.status === 'processed') return '';
  return e.quarantineReason ?? e.error ?? '';
}

/** Retry from a list or a detail page: not a rejected event, not one whose body retention pruned. */
export function retryable(e: EventSummary): boolean {
  return e.status !== 'rejected' && e.payloadPrunedAt === null;
}

export function editable(e: EventSummary): boolean {
  return (EDITABLE_STATUSES as readonly string[]).includes(e.status) && e.payloadPrunedAt === null;
}

/** GET …/events?kind=&status=&code=&from=&to=&before=: the connection's webhook events, newest first, keyset pages. */
export const registerEventsList: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/events', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = eventsPageSchema.safeParse(nonEmpty(c.req.query()));
    if (!parsed.success) return badQuery(c, deps, connection, 'events', parsed.error);
    const q = parsed.data;
    const page = await listEventsCapped(deps.store, inboxFilter(connection, q), {
      limit: q.limit,
      beforeId: q.before ? Number(q.before) : undefined,
    });
    const base = `${connectionBase(connection)}/events`;
    const here = eventsHref(connection, q, { before: q.before, limit: q.limit === 50 ? undefined : q.limit });
    const csrf = c.get('session').csrf;
    const bulk = q.status === undefined || BULK_RETRY_STATUSES.includes(q.status);
    const columns: Column<EventSummary>[] = [
      { header: 'Id', class: 'num', cell: (e) => <a href={eventHref(connection, e.id)}>{e.id}</a> },
      { header: 'Received (UTC)', class: 'nowrap', cell: (e) => <Time iso={e.receivedAt} /> },
      { header: 'Kind', class: 'nowrap', cell: (e) => <span class="mono">{e.kind}</span> },
      {
        header: 'Business code',
        cell: (e) =>
          e.businessCode ? <a href={eventsHref(connection, { code: e.businessCode })}>{e.businessCode}</a> : '—',
      },
      { header: 'Status', cell: (e) => <Badge value={e.status} /> },
      { header: 'Attempts', class: 'num', cell: (e) => e.attempts },
      {
        header: 'Problem',
        class: 'error',
        cell: (e) => (
          <>
            {eventProblem(e)}
            {e.corrected ? <span class="muted"> (corrected)</span> : null}
          </>
        ),
      },
      {
        header: '',
        class: 'nowrap',
        cell: (e) => (
          <>
            {editable(e) ? (
              <a class="btn small" href={`${eventHref(connection, e.id)}/edit`}>
                Edit
              </a>
            ) : null}{' '}
            {retryable(e) && e.status !== 'processed' ? (
              <ActionButton
                action={`${eventHref(connection, e.id)}/retry`}
                csrf={csrf}
                label="Retry"
                small
                fields={{ next: here }}
              />
            ) : null}
          </>
        ),
      },
    ];
    return renderPage(
      c,
      `Inbound events · ${connection}`,
      frameFor(c, deps, connection, 'events'),
      <>
        <PageHead
          title="Inbound events"
          subtitle="What the WMS sent, and what became of it: quarantined events wait for a correction, failed ones for a retry."
          actions={
            bulk ? (
              <a class="btn" href={withQuery(`${base}/retry`, filterParams(q))}>
                Retry {q.status ?? 'failed and quarantined'} events of this filter…
              </a>
            ) : undefined
          }
        />
        <FilterBar
          action={base}
          selects={[
            {
              name: 'status',
              label: 'Status',
              value: q.status,
              options: statusOptions(INBOUND_STATUSES, 'Any status'),
            },
            {
              name: 'kind',
              label: 'Kind',
              value: q.kind,
              options: [{ value: '', label: 'Any kind' }, ...WEBHOOK_KINDS.map((k) => ({ value: k, label: k }))],
            },
          ]}
          inputs={[
            {
              name: 'code',
              label: 'Business code',
              value: q.code,
              type: 'text',
              placeholder: 'closingDocumentCode or product',
            },
            { name: 'from', label: 'Received from (UTC)', value: localInput(q.from), type: 'datetime-local' },
            { name: 'to', label: 'Received before (UTC)', value: localInput(q.to), type: 'datetime-local' },
          ]}
        />
        <DataTable
          columns={columns}
          rows={page.events}
          rowId={(e) => e.id}
          empty="No event matches these filters for this connection."
        />
        <Pager
          newestHref={q.before ? eventsHref(connection, q) : undefined}
          nextHref={
            page.nextCursor
              ? eventsHref(connection, q, { before: page.nextCursor, limit: q.limit === 50 ? undefined : q.limit })
              : undefined
          }
          summary={`${page.more ? `More than ${plural(page.total, 'event')}` : plural(page.total, 'event')} match, newest first${page.events.length > 0 ? ` · showing ${fmtNumber(page.events.length)}` : ''}`}
        />
      </>,
    );
  });
};
