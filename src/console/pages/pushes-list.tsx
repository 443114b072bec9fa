import { pushesQuery } from '../../admin/routes/pushes-list.js';
import { listRecords, type RecordSummary } from '../../push/list.js';
import { PUSH_ENTITIES, PUSH_STATES, type PushEntity } from '../../store/index.js';
import { connectionBase } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage } from '../page.js';
import { ActionButton } from '../ui/actions.js';
import { Badge } from '../ui/badge.js';
import { FilterBar } from '../ui/filters.js';
import { errorText } from '../ui/format.js';
import { statusOptions } from '../ui/labels.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { badQuery } from './errors.js';
import { ENTITY_LABELS } from './overview.js';

export const PAGE_SIZE = 50;

export function recordHref(connection: string, entity: PushEntity, code: string): string {
  return `${connectionBase(connection)}/pushes/${entity}/${encodeURIComponent(code)}`;
}

/** GET …/pushes?entity=&state=&before=: one entity's records, newest first, keyset pages. */
export const registerPushesList: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/pushes', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = pushesQuery.safeParse({ entity: 'product', limit: PAGE_SIZE, ...c.req.query() });
    if (!parsed.success) return badQuery(c, deps, connection, 'pushes', parsed.error);
    const q = parsed.data;
    const page = await listRecords(deps.store, { connection, ...q });
    const base = `${connectionBase(connection)}/pushes`;
    const here = `${base}?${new URLSearchParams(c.req.query()).toString()}`;
    const csrf = c.get('session').csrf;
    const columns: Column<RecordSummary>[] = [
      {
        header: 'External code',
        cell: (r) => <a href={recordHref(connection, r.entity, r.externalCode)}>{r.externalCode}</a>,
      },
      { header: 'State', cell: (r) => <Badge value={r.state} /> },
      { header: 'In WMS', cell: (r) => (r.inSync ? 'current' : r.state === 'synced' ? '—' : 'not yet') },
      { header: 'Attempts', class: 'num', cell: (r) => r.attempts },
      { header: 'Last pushed (UTC)', class: 'nowrap', cell: (r) => <Time iso={r.lastPushedAt} /> },
      { header: 'Updated (UTC)', class: 'nowrap', cell: (r) => <Time iso={r.updatedAt} /> },
      { header: "WMS's error", class: 'error', cell: (r) => (r.state === 'synced' ? '' : errorText(r.lastError)) },
      {
        header: '',
        class: 'nowrap',
        cell: (r) =>
          r.state === 'synced' ? null : (
            <ActionButton
              action={`${recordHref(connection, r.entity, r.externalCode)}/retry`}
              csrf={csrf}
              label="Retry"
              small
              fields={{ next: here }}
            />
          ),
      },
    ];
    return renderPage(
      c,
      `WMS pushes · ${connection}`,
      frameFor(c, deps, connection, 'pushes'),
      <>
        <PageHead
          title="WMS pushes"
          subtitle="What the ERP asked to exist in the WMS, and whether it does: the sync state, the WMS's error for failed ones, the attempts."
          actions={
            <a class="btn" href={withQuery(`${base}/retry-failed`, { entity: q.entity })}>
              Retry failed {ENTITY_LABELS[q.entity].toLowerCase()}…
            </a>
          }
        />
        <nav class="tabs" aria-label="Record kinds">
          {PUSH_ENTITIES.map((e) => (
            <a href={withQuery(base, { entity: e, state: q.state })} class={e === q.entity ? 'active' : undefined}>
              {ENTITY_LABELS[e]}
            </a>
          ))}
        </nav>
        <FilterBar
          action={base}
          hidden={{ entity: q.entity }}
          selects={[
            {
              name: 'state',
              label: 'State',
              value: q.state,
              options: statusOptions(PUSH_STATES, 'Any state'),
            },
          ]}
        />
        <DataTable
          columns={columns}
          rows={page.records}
          rowId={(r) => r.id}
          empty={`No ${ENTITY_LABELS[q.entity].toLowerCase()}${q.state ? ` ${q.state}` : ''} for this connection.`}
        />
        <Pager
          newestHref={q.before ? withQuery(base, { entity: q.entity, state: q.state }) : undefined}
          nextHref={
            page.nextBefore ? withQuery(base, { entity: q.entity, state: q.state, before: page.nextBefore }) : undefined
          }
          summary={`${page.records.length} shown, newest first`}
        />
      </>,
    );
  });
};
