import { type EventDetail, eventDetail } from '../../inbound/event-views.js';
import type { ConsoleDeps } from '../env.js';
import { pageHref } from '../nav.js';
import { type ConsoleContext, frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { Card, KeyValues, Notice } from '../ui/detail.js';
import { fmtTime } from '../ui/format.js';
import { JsonBlock } from '../ui/json.js';
import { PageHead } from '../ui/layout.js';
import { DataTable, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { errorPage } from './errors.js';
import { RefusalActions, RefusalHistory, RefusalNotice } from './event-refusal.js';
import { editable, eventProblem, retryable } from './events-list.js';
import { eventHref, eventsHref } from './events-query.js';
import { feedSummary } from './feed.js';

/**
 * The event `:id` of the path's connection, through the admin API's read model; undefined (the
 * caller answers 404) for another connection's event, so a URL never crosses connections.
 */
export async function pathEvent(
  c: ConsoleContext,
  deps: ConsoleDeps,
): Promise<{ connection: string; detail: EventDetail | undefined }> {
  const connection = pathConnection(c, deps).name;
  const id = c.req.param('id') ?? '';
  const detail = /^[1-9]\d{0,15}$/.test(id) ? await eventDetail(deps.store, Number(id)) : undefined;
  return { connection, detail: detail?.event.connection === connection ? detail : undefined };
}

function Change(props: { value: unknown }) {
  return props.value === undefined ? <span class="muted">(absent)</span> : <code>{JSON.stringify(props.value)}</code>;
}

function History(props: { edits: EventDetail['edits'] }) {
  return (
    <DataTable
      columns={[
        { header: 'When (UTC)', class: 'nowrap', cell: (e) => <Time iso={e.at} /> },
        { header: 'Who', class: 'nowrap', cell: (e) => e.actor },
        {
          header: 'Changes',
          cell: (e) => (
            <ul class="changes">
              {e.changes.map((ch) => (
                <li>
                  <span class="mono">{ch.path}</span>: <Change value={ch.before} /> → <Change value={ch.after} />
                </li>
              ))}
            </ul>
          ),
        },
      ]}
      rows={props.edits}
      rowId={(e) => e.id}
      empty="No correction."
    />
  );
}

/** GET …/events/{id}: the raw body, the correction and its history, the attempts, the feed entries it produced. */
export const registerEventDetail: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/events/:id{[0-9]+}', async (c) => {
    const { connection, detail } = await pathEvent(c, deps);
    if (!detail)
      return errorPage(c, deps, 404, 'Not found', `No event ${c.req.param('id')} for connection ${connection}`);
    const e = detail.event;
    const href = eventHref(connection, e.id);
    const csrf = c.get('session').csrf;
    const problem = eventProblem(e);
    return renderPage(
      c,
      `Event ${e.id} · ${e.kind}`,
      frameFor(c, deps, connection, 'events'),
      <>
        <PageHead
          crumbs={
            <>
              <a href={eventsHref(connection)}>Inbound events</a> /{' '}
              <a href={eventsHref(connection, { kind: e.kind })}>{e.kind}</a> /
            </>
          }
          title={`Event ${e.id}${e.businessCode ? ` · ${e.businessCode}` : ''}`}
          subtitle={<Badge value={e.status} />}
          actions={
            <>
              {editable(e) ? (
                <a class={e.status === 'quarantined' ? 'btn primary' : 'btn'} href={`${href}/edit`}>
                  Edit payload
                </a>
              ) : null}
              {e.status === 'rejected_by_erp' && e.payloadPrunedAt === null ? (
                <RefusalActions href={href} csrf={csrf} />
              ) : retryable(e) ? (
                <ActionButton
                  action={`${href}/retry`}
                  csrf={csrf}
                  label={e.status === 'processed' ? 'Process again' : 'Retry now'}
                  variant={e.status === 'failed' || e.status === 'received' ? 'primary' : 'default'}
                />
              ) : null}
            </>
          }
        />
        <RefusalNotice detail={detail} />
        {problem && e.status !== 'rejected_by_erp' ? (
          <Notice
            tone={e.status === 'quarantined' || e.status === 'failed' || e.status === 'rejected' ? 'bad' : 'info'}
          >
            {e.status === 'quarantined'
              ? 'Quarantined: '
              : e.status === 'rejected'
                ? 'Refused on arrival: '
                : 'Last error: '}
            <span data-problem="">{problem}</span>
          </Notice>
        ) : null}
        <div class="grid cols-2">
          <Card title="Event">
            <KeyValues
              items={[
                ['Status', <Badge value={e.status} />],
                ['Kind', <span class="mono">{e.kind}</span>],
                [
                  'Business code',
                  e.businessCode ? (
                    <a href={eventsHref(connection, { code: e.businessCode })}>{e.businessCode}</a>
                  ) : (
                    '—'
                  ),
                ],
                ['Dedupe key', <span class="mono">{e.dedupeKey}</span>],
                ['Received (UTC)', <Time iso={e.receivedAt} />],
                ['Processed (UTC)', <Time iso={e.processedAt} />],
                ['Updated (UTC)', <Time iso={e.updatedAt} />],
                ['Attempts', String(e.attempts)],
                ['Repeats received', String(e.duplicates)],
                ['Request id', e.requestId ? <span class="mono">{e.requestId}</span> : '—'],
                ['Raw body', e.payloadPrunedAt ? `pruned by retention at ${fmtTime(e.payloadPrunedAt)}` : 'kept'],
              ]}
            />
          </Card>
          <Card title="Processing attempts">
            <DataTable
              columns={[
                { header: 'When (UTC)', class: 'nowrap', cell: (a) => <Time iso={a.at} /> },
                { header: 'Outcome', cell: (a) => <Badge value={a.outcome} /> },
                { header: 'Error', class: 'error', cell: (a) => a.error ?? '' },
              ]}
              rows={detail.attempts}
              rowId={(a) => a.id}
              empty="Not processed yet."
            />
          </Card>
        </div>
        <RefusalHistory detail={detail} />
        <Card title="Feed entries it produced (what the ERP reads)" id="feed-entries">
          <DataTable
            columns={[
              {
                header: 'Cursor',
                class: 'num',
                cell: (x) => <a href={withQuery(pageHref(connection, 'feed'), { after: x.id - 1 })}>{x.id}</a>,
              },
              { header: 'Type', class: 'nowrap', cell: (x) => <span class="mono">{x.type}</span> },
              { header: 'Created (UTC)', class: 'nowrap', cell: (x) => <Time iso={x.createdAt} /> },
              { header: 'About', cell: (x) => feedSummary(x.data) },
            ]}
            rows={detail.feedEntries}
            rowId={(x) => x.id}
            empty={
              e.status === 'processed'
                ? 'None: this event changed nothing the ERP reads.'
                : 'None yet: the event has not been processed.'
            }
          />
        </Card>
        {detail.correction ? (
          <div class="grid cols-2">
            <Card title="Corrected payload (what processing reads)">
              <JsonBlock value={detail.correction.raw} />
            </Card>
            <Card title="Corrections">
              <History edits={detail.edits} />
            </Card>
          </div>
        ) : null}
        <Card title={detail.correction ? 'Raw body, as received (kept unchanged)' : 'Raw body, as received'}>
          {e.payloadPrunedAt ? (
            <p class="muted">Removed by retention on {fmtTime(e.payloadPrunedAt)}.</p>
          ) : (
            <JsonBlock value={detail.payload.raw} />
          )}
        </Card>
      </>,
    );
  });
};
