import { z } from 'zod';
import { pageQuery } from '../../admin/routes/params.js';
import { latestFeed } from '../../erp/feed/latest.js';
import type { ErpFeedEntry } from '../../erp/feed/read.js';
import { listFeed } from '../../erp/feed/read.js';
import { connectionBase, pageHref } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderFragment, renderPage } from '../page.js';
import { Card } from '../ui/detail.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable, Pager, withQuery } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { badQuery } from './errors.js';

const PAGE = 50;
const query = pageQuery.extend({
  after: z.coerce
    .number({ error: 'expected a non-negative integer' })
    .int('expected a non-negative integer')
    .min(0, 'expected a non-negative integer')
    .optional(),
});

/** The few fields that say what a feed entry is about, whatever its type. */
export function feedSummary(data: Record<string, unknown>): string {
  const parts: string[] = [];
  const text = (key: string) =>
    typeof data[key] === 'string' || typeof data[key] === 'number' ? String(data[key]) : undefined;
  const doc = text('documentExternalCode') ?? text('closingDocumentCode');
  if (doc) parts.push(doc);
  const product = text('productExternalCode');
  if (product) parts.push(`${product}${text('lotCode') ? ` lot ${text('lotCode')}` : ''}`);
  for (const key of ['quantity', 'delta'])
    if (text(key) !== undefined) parts.push(`${key} ${Number(data[key]) > 0 ? '+' : ''}${text(key)}`);
  if (Array.isArray(data.lines)) parts.push(`${data.lines.length} line(s)`);
  return parts.join(' · ');
}

const columns: Column<ErpFeedEntry>[] = [
  { header: 'Cursor', class: 'num', cell: (e) => <span class="mono">{e.id}</span> },
  { header: 'Type', class: 'nowrap', cell: (e) => <span class="mono">{e.type}</span> },
  { header: 'Created (UTC)', class: 'nowrap', cell: (e) => <Time iso={e.createdAt} /> },
  { header: 'About', cell: (e) => feedSummary(e.data) },
  {
    header: 'Data',
    cell: (e) => (
      <details class="data">
        <summary>as the ERP reads it</summary>
        <pre class="json">{JSON.stringify(e, null, 2)}</pre>
      </details>
    ),
  },
];

function FeedTable(props: { entries: ErpFeedEntry[]; empty: string }) {
  return <DataTable columns={columns} rows={props.entries} rowId={(e) => e.id} empty={props.empty} />;
}

/** GET …/feed: the latest feed entries (refreshing), older pages, or what the ERP reads after a cursor. */
export const registerFeed: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/feed', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = query.safeParse({ limit: PAGE, ...c.req.query() });
    if (!parsed.success) return badQuery(c, deps, connection, 'feed', parsed.error);
    const { after, before, limit } = parsed.data;
    const base = pageHref(connection, 'feed');
    const cursorForm = (
      <form class="filters" method="get" action={base}>
        <label>
          Read as the ERP does, after cursor
          <input type="number" name="after" min="0" value={after === undefined ? '' : String(after)} placeholder="0" />
        </label>
        <button class="btn" type="submit">
          Read
        </button>
        {after !== undefined ? (
          <a class="btn" href={base}>
            Latest
          </a>
        ) : null}
      </form>
    );
    let body;
    if (after !== undefined) {
      const page = await listFeed(deps.store, { connection, after, limit });
      body = (
        <>
          <p class="muted">
            Exactly what <span class="mono">GET /erp/v1/feed?after={after}</span> answers the ERP, oldest first; its
            next cursor is <span class="mono">{page.next}</span>.
          </p>
          <FeedTable entries={page.entries} empty="Nothing after this cursor yet: the ERP is up to date." />
          <Pager
            nextHref={page.entries.length === limit ? withQuery(base, { after: page.next }) : undefined}
            summary={`${page.entries.length} event(s)`}
          />
        </>
      );
    } else {
      const page = await latestFeed(deps.store, { connection, before, limit });
      const table = <FeedTable entries={page.entries} empty="No feed entry for the ERP yet." />;
      body = (
        <>
          {before === undefined ? (
            <div
              id="feed-live"
              data-highlight-new=""
              hx-get={`${connectionBase(connection)}/feed/live`}
              hx-trigger="every 3s"
              hx-swap="innerHTML"
            >
              {table}
            </div>
          ) : (
            table
          )}
          <Pager
            newestHref={before ? base : undefined}
            nextHref={page.nextBefore ? withQuery(base, { before: page.nextBefore }) : undefined}
            summary="Newest first"
          />
        </>
      );
    }
    return renderPage(
      c,
      `ERP feed · ${connection}`,
      frameFor(c, deps, connection, 'feed'),
      <>
        <PageHead
          title="ERP feed"
          subtitle="The feed entries the ERP reads from GET /erp/v1/feed: each id is a cursor that never goes back."
        />
        <Card>{cursorForm}</Card>
        {body}
      </>,
    );
  });

  app.get('/console/connections/:connection/feed/live', async (c) => {
    const connection = pathConnection(c, deps).name;
    const page = await latestFeed(deps.store, { connection, limit: PAGE });
    return renderFragment(c, <FeedTable entries={page.entries} empty="No feed entry for the ERP yet." />);
  });
};
