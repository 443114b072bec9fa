import { latestFeed } from '../../erp/feed/latest.js';
import type { ErpFeedEntry } from '../../erp/feed/read.js';
import { listRecords } from '../../push/list.js';
import { webhookIds } from '../emulator/actions.js';
import { ControlCallError, controlClient, type EmulatorLink, type WebhookLogEntry } from '../emulator/control.js';
import type { ConsoleDeps } from '../env.js';
import { connectionBase } from '../nav.js';
import {
  type ConsoleContext,
  frameFor,
  type PageRegistrar,
  pathConnection,
  renderFragment,
  renderPage,
} from '../page.js';
import { Badge } from '../ui/badge.js';
import { Card, Notice } from '../ui/detail.js';
import { PageHead } from '../ui/layout.js';
import { type Column, DataTable } from '../ui/table.js';
import { Time } from '../ui/time.js';
import { EMPTY_LINES, LineRows } from './emulator-lines.js';
import { errorPage } from './errors.js';
import { feedSummary } from './feed.js';

const webhookTone = (d: WebhookLogEntry) =>
  d.status === 'succeeded' ? 'delivered' : d.status === 'pending' ? 'sending' : 'failed';

/** The panel's emulator, or an error page: it exists only under `wms-sync start`, for its connection. */
export function panelLink(c: ConsoleContext, deps: ConsoleDeps): { link: EmulatorLink; connection: string } | Response {
  const connection = pathConnection(c, deps).name;
  if (!deps.emulator || deps.emulator.connection !== connection) {
    return errorPage(
      c,
      deps,
      404,
      'No emulator here',
      'The emulator panel exists when the console runs under wms-sync start, on the pages of its demo connection.',
    );
  }
  return { link: deps.emulator, connection };
}

/** `?watch=1,2,3`: the webhooks an action just queued (a few ids; anything else is ignored). */
function watched(raw: string | undefined): number[] {
  return (raw ?? '')
    .split(',')
    .filter((s) => /^[1-9]\d{0,9}$/.test(s))
    .slice(0, 20)
    .map(Number);
}

const webhookLogColumns: Column<WebhookLogEntry>[] = [
  { header: 'Webhook', cell: (d) => <span class="mono">#{d.id}</span> },
  { header: 'Kind', cell: (d) => d.kind },
  { header: 'Closing document', cell: (d) => d.closingDocumentCode ?? '—' },
  { header: 'Webhook', cell: (d) => <Badge value={webhookTone(d)} /> },
  { header: "Service's answer", cell: (d) => (d.response ? `HTTP ${d.response.status}` : '—') },
  { header: 'Error', class: 'error', cell: (d) => d.error ?? '' },
];

const feedColumns: Column<ErpFeedEntry>[] = [
  { header: 'Cursor', class: 'num', cell: (e) => <span class="mono">{e.id}</span> },
  { header: 'Type', cell: (e) => <span class="mono">{e.type}</span> },
  { header: 'Created (UTC)', class: 'nowrap', cell: (e) => <Time iso={e.createdAt} /> },
  { header: 'About', cell: (e) => feedSummary(e.data) },
];

interface Watched {
  sent: WebhookLogEntry[];
  problem: string | undefined;
  feed: ErpFeedEntry[];
  ids: number[];
}

/** The webhooks of the last action as the emulator logged them, and the latest feed they turn into. */
async function loadWatch(deps: ConsoleDeps, link: EmulatorLink, connection: string, ids: number[]): Promise<Watched> {
  let sent: WebhookLogEntry[] = [];
  let problem: string | undefined;
  try {
    sent = await webhookIds(controlClient(link), ids);
  } catch (err) {
    problem = err instanceof ControlCallError ? err.message : String(err);
  }
  return { sent, problem, feed: (await latestFeed(deps.store, { connection, limit: 8 })).entries, ids };
}

function Watch(props: { w: Watched }) {
  const { w } = props;
  return (
    <>
      <h2>Webhooks of the last action</h2>
      {w.problem ? <Notice tone="bad">{w.problem}</Notice> : null}
      <DataTable
        columns={webhookLogColumns}
        rows={w.sent}
        empty={w.ids.length === 0 ? 'Trigger an action above: its webhooks show here.' : 'No webhook.'}
      />
      <h2>Latest ERP feed entries</h2>
      <DataTable columns={feedColumns} rows={w.feed} rowId={(e) => e.id} empty="No feed entry yet." />
    </>
  );
}

function Actions(props: { base: string; csrf: string; documents: string[] }) {
  return (
    <div class="grid cols-2">
      <Card title="Receive a document">
        <form method="post" action={`${props.base}/reception`}>
          <input type="hidden" name="_csrf" value={props.csrf} />
          <div class="form-row">
            <label class="field">
              Inbound document (purchase order, client return)
              <input
                type="text"
                id="reception-document"
                name="document"
                list="known-documents"
                required
                placeholder="PO-2026-0001"
              />
            </label>
            <button
              class="btn"
              type="button"
              hx-get={`${props.base}/lines`}
              hx-include="#reception-document"
              hx-target="#reception-lines"
              hx-swap="outerHTML"
            >
              Fill lines from the document
            </button>
          </div>
          <LineRows lines={[]} />
          <p class="hint">
            Up to {EMPTY_LINES} lines here (more through the control API). Any quantity: more or less than ordered shows
            as a difference.
          </p>
          <button class="btn primary" type="submit">
            Receive and close
          </button>
        </form>
      </Card>
      <div>
        <Card title="Ship a document">
          <form method="post" action={`${props.base}/shipment`}>
            <input type="hidden" name="_csrf" value={props.csrf} />
            <div class="form-row">
              <label class="field">
                Outbound document (client order, supplier return)
                <input type="text" name="document" list="known-documents" required placeholder="SO-2026-0101" />
              </label>
              <button class="btn primary" type="submit">
                Pick, pack and dispatch
              </button>
            </div>
          </form>
        </Card>
        <Card title="Regularize stock">
          <form method="post" action={`${props.base}/regularization`}>
            <input type="hidden" name="_csrf" value={props.csrf} />
            <div class="form-grid">
              <label class="field">
                Product
                <input type="text" name="product" required placeholder="OLV-OIL-1L" />
              </label>
              <label class="field">
                Lot
                <input type="text" name="lot" placeholder="if lot-tracked" />
              </label>
              <label class="field">
                Quantity (±)
                <input type="number" name="quantity" step="any" required placeholder="3 or -2" />
              </label>
              <label class="field">
                Expiry (new lot)
                <input type="date" name="expiry" />
              </label>
            </div>
            <p>
              <button class="btn primary" type="submit">
                Regularize
              </button>
            </p>
          </form>
        </Card>
      </div>
      <datalist id="known-documents">
        {props.documents.map((d) => (
          <option value={d} />
        ))}
      </datalist>
    </div>
  );
}

/** GET …/emulator (the panel) and GET …/emulator/live (what it watches, polled). */
export const registerEmulatorPanel: PageRegistrar = (app, deps) => {
  app.get('/console/connections/:connection/emulator', async (c) => {
    const panel = panelLink(c, deps);
    if (panel instanceof Response) return panel;
    const { link, connection } = panel;
    const ids = watched(c.req.query('watch'));
    const base = `${connectionBase(connection)}/emulator`;
    const documents = (
      await listRecords(deps.store, { connection, entity: 'document', state: 'synced', limit: 100 })
    ).records.map((d) => d.externalCode);
    return renderPage(
      c,
      `Emulator · ${connection}`,
      frameFor(c, deps, connection, 'emulator'),
      <>
        <PageHead
          title="Emulator"
          subtitle={
            <>
              The demo warehouse (tenant <span class="mono">{link.tenant}</span> at <span class="mono">{link.url}</span>
              ). Act as its operator, then watch its webhooks arrive and become feed entries for the ERP.
            </>
          }
        />
        <Actions base={base} csrf={c.get('session').csrf} documents={documents} />
        <div
          id="emulator-watch"
          data-highlight-new=""
          hx-get={`${base}/live${ids.length ? `?watch=${ids.join(',')}` : ''}`}
          hx-trigger="every 2s"
          hx-swap="innerHTML"
        >
          <Watch w={await loadWatch(deps, link, connection, ids)} />
        </div>
      </>,
    );
  });

  app.get('/console/connections/:connection/emulator/live', async (c) => {
    const panel = panelLink(c, deps);
    if (panel instanceof Response) return panel;
    return renderFragment(
      c,
      <Watch w={await loadWatch(deps, panel.link, panel.connection, watched(c.req.query('watch')))} />,
    );
  });
};
