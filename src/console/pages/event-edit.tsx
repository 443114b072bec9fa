import { type CorrectionResult, correctEvent } from '../../inbound/correct-event.js';
import type { EventDetail } from '../../inbound/event-views.js';
import type { FieldProblem } from '../../inbound/reading.js';
import type { ConsoleDeps } from '../env.js';
import { type ConsoleContext, frameFor, type PageRegistrar, renderFragment, renderPage, setFlash } from '../page.js';
import { Badge } from '../ui/badge.js';
import { Card, Notice } from '../ui/detail.js';
import { JsonEditor } from '../ui/json.js';
import { PageHead } from '../ui/layout.js';
import { errorPage } from './errors.js';
import { pathEvent } from './event-detail.js';
import { editable, eventProblem } from './events-list.js';
import { eventHref, eventsHref } from './events-query.js';

const EDITOR_ID = 'payload-editor';

/** What a check or a save of `text` found: the text does not parse, the schema's problems, or what it changes. */
type Outcome =
  | { kind: 'not-json'; message: string }
  | { kind: 'problems'; problems: FieldProblem[] }
  | { kind: 'ok'; result: Extract<CorrectionResult, { ok: true }> }
  | { kind: 'refused'; status: 404 | 409; message: string };

/** The admin API's correction (PUT /admin/v1/events/{id}/payload, `dryRun` or not) of the editor's text. */
async function correct(deps: ConsoleDeps, actor: string, id: number, text: string, dryRun: boolean): Promise<Outcome> {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (err) {
    return { kind: 'not-json', message: (err as Error).message };
  }
  const result = await correctEvent(deps, { id, payload, actor, dryRun });
  if (result.ok) return { kind: 'ok', result };
  if (result.reason === 'invalid') return { kind: 'problems', problems: result.problems };
  if (result.reason === 'not_found') return { kind: 'refused', status: 404, message: 'This event no longer exists.' };
  return {
    kind: 'refused',
    status: 409,
    message: `The event is ${result.status} now: only quarantined and failed events can be corrected.`,
  };
}

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** The server's verdict on the editor's text, shown under it (and swapped in by htmx as it is typed). */
function CheckResult(props: { outcome: Outcome; saved?: boolean }) {
  const o = props.outcome;
  if (o.kind === 'not-json') return <p class="validation bad" data-check="not-json">{`Not JSON: ${o.message}`}</p>;
  if (o.kind === 'refused')
    return (
      <p class="validation bad" data-check="refused">
        {o.message}
      </p>
    );
  if (o.kind === 'problems') {
    return (
      <div class="validation bad" data-check="problems">
        <p>
          {o.problems.length === 1
            ? 'One problem; nothing is saved until it is fixed:'
            : `${o.problems.length} problems; nothing is saved until they are fixed:`}
        </p>
        <ul class="problems">
          {o.problems.map((p) => (
            <li>
              <span class="mono">{p.path}</span>: {p.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div class="validation ok" data-check="ok">
      <p>
        Valid: processing can apply it. Saving stores it beside the original and processes the event again. It changes:
      </p>
      <ul class="problems">
        {o.result.changes.map((ch) => (
          <li>
            <span class="mono">{ch.path}</span>: {show(ch.before)} → {show(ch.after)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function EditPage(props: {
  c: ConsoleContext;
  deps: ConsoleDeps;
  connection: string;
  detail: EventDetail;
  text: string;
  outcome: Outcome;
}) {
  const { connection, detail } = props;
  const e = detail.event;
  const href = eventHref(connection, e.id);
  return (
    <>
      <PageHead
        crumbs={
          <>
            <a href={eventsHref(connection)}>Inbound events</a> / <a href={href}>Event {e.id}</a> /
          </>
        }
        title={`Correct event ${e.id}`}
        subtitle={
          <>
            <Badge value={e.status} /> <span class="mono">{e.kind}</span> {e.businessCode ?? ''}
          </>
        }
      />
      {eventProblem(e) ? (
        <Notice tone="bad">{`${e.status === 'quarantined' ? 'Quarantined' : 'Failed'}: ${eventProblem(e)}`}</Notice>
      ) : null}
      <Card
        title={detail.correction ? 'The latest correction, to correct further' : 'The payload as received, to correct'}
      >
        <form method="post" action={`${href}/edit`}>
          <input type="hidden" name="_csrf" value={props.c.get('session').csrf} />
          <JsonEditor
            name="payload"
            id={EDITOR_ID}
            label="Payload (JSON)"
            value={props.text}
            check={`${href}/edit/check`}
            checked={<CheckResult outcome={props.outcome} />}
          />
          <p class="hint">
            Checked as you type against what processing reads (the admin API's dry run). The original body is kept
            unchanged; every saved correction is in the event's history.
          </p>
          <div class="form-row">
            <button class="btn primary" type="submit">
              Save and process
            </button>
            <button
              class="btn"
              type="button"
              hx-post={`${href}/edit/check`}
              hx-include={`#${EDITOR_ID}`}
              hx-target={`#${EDITOR_ID}-check`}
              hx-swap="innerHTML"
            >
              Check
            </button>
            <a class="btn" href={href}>
              Cancel
            </a>
          </div>
        </form>
      </Card>
    </>
  );
}

/**
 * GET …/events/{id}/edit (the editor), POST …/edit/check (htmx: the dry run of the text, a
 * fragment) and POST …/edit (save: the correction, then back to the event; its problems otherwise).
 */
export const registerEventEdit: PageRegistrar = (app, deps) => {
  const load = async (c: ConsoleContext) => {
    const { connection, detail } = await pathEvent(c, deps);
    if (!detail)
      return {
        connection,
        page: errorPage(c, deps, 404, 'Not found', `No event ${c.req.param('id')} for connection ${connection}`),
      };
    if (!editable(detail.event)) {
      const why = detail.event.payloadPrunedAt
        ? 'its body was pruned by retention'
        : `it is ${detail.event.status}: only quarantined and failed events can be corrected`;
      return {
        connection,
        page: errorPage(c, deps, 409, 'Refused', `Event ${detail.event.id} cannot be corrected: ${why}.`),
      };
    }
    return { connection, detail };
  };
  const render = (
    c: ConsoleContext,
    connection: string,
    detail: EventDetail,
    text: string,
    outcome: Outcome,
    status: 200 | 400,
  ) =>
    renderPage(
      c,
      `Correct event ${detail.event.id}`,
      frameFor(c, deps, connection, 'events'),
      <EditPage c={c} deps={deps} connection={connection} detail={detail} text={text} outcome={outcome} />,
      status,
    );

  app.get('/console/connections/:connection/events/:id{[0-9]+}/edit', async (c) => {
    const loaded = await load(c);
    if (!loaded.detail) return loaded.page;
    const text = (loaded.detail.correction ?? loaded.detail.payload).raw;
    return render(
      c,
      loaded.connection,
      loaded.detail,
      text,
      await correct(deps, c.get('session').operator, loaded.detail.event.id, text, true),
      200,
    );
  });

  app.post('/console/connections/:connection/events/:id{[0-9]+}/edit/check', async (c) => {
    const { detail } = await pathEvent(c, deps);
    if (!detail) return c.text('No such event', 404);
    const text = (await c.req.parseBody()).payload;
    return renderFragment(
      c,
      <CheckResult
        outcome={
          await correct(deps, c.get('session').operator, detail.event.id, typeof text === 'string' ? text : '', true)
        }
      />,
    );
  });

  app.post('/console/connections/:connection/events/:id{[0-9]+}/edit', async (c) => {
    const loaded = await load(c);
    if (!loaded.detail) return loaded.page;
    const field = (await c.req.parseBody()).payload;
    const text = typeof field === 'string' ? field : '';
    const outcome = await correct(deps, c.get('session').operator, loaded.detail.event.id, text, false);
    if (outcome.kind === 'refused') return errorPage(c, deps, outcome.status, 'Refused', outcome.message);
    if (outcome.kind !== 'ok') return render(c, loaded.connection, loaded.detail, text, outcome, 400);
    const n = outcome.result.changes.length;
    setFlash(c, {
      tone: 'ok',
      message: `Correction saved (${n} change${n === 1 ? '' : 's'}); event ${loaded.detail.event.id} is queued for processing.`,
    });
    return c.redirect(eventHref(loaded.connection, loaded.detail.event.id), 303);
  });
};
