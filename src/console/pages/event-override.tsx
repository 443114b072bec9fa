import { OVERRIDE_REASON_LIMIT, overrideErpRefusal } from '../../inbound/erp-refusal.js';
import type { EventDetail } from '../../inbound/event-views.js';
import type { ConsoleDeps } from '../env.js';
import { type ConsoleContext, frameFor, type PageRegistrar, renderPage, setFlash } from '../page.js';
import { Card, KeyValues, Notice } from '../ui/detail.js';
import { fmtTime } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { errorPage } from './errors.js';
import { pathEvent } from './event-detail.js';
import { latestRefusal } from './event-refusal.js';
import { eventHref, eventsHref } from './events-query.js';

function OverrideForm(props: {
  c: ConsoleContext;
  connection: string;
  detail: EventDetail;
  error?: string;
  reason?: string;
}) {
  const e = props.detail.event;
  const href = eventHref(props.connection, e.id);
  const refusal = latestRefusal(props.detail);
  return (
    <>
      <PageHead
        crumbs={
          <>
            <a href={eventsHref(props.connection)}>Inbound events</a> / <a href={href}>Event {e.id}</a> /
          </>
        }
        title="Override the ERP's refusal"
        subtitle="The document is processed as if the ERP had accepted it: its feed entry is sent to the ERP, which refused it."
      />
      <Card title="What the ERP said">
        <KeyValues
          items={[
            ['Document', e.businessCode ?? `event ${e.id}`],
            ['Kind', <span class="mono">{e.kind}</span>],
            ["ERP's refusal", <span data-refusal="">{refusal?.message ?? '—'}</span>],
            ['Refused at (UTC)', fmtTime(refusal?.at ?? null)],
          ]}
        />
      </Card>
      <section class="card">
        <h2>Confirm the override</h2>
        <p>
          Prefer <strong>asking the ERP again</strong> once the cause is fixed in the ERP. Override only when the ERP
          cannot accept it and the warehouse's document must count anyway. Your name and reason go to the audit trail.
        </p>
        <form method="post" action={`${href}/override`}>
          {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
          <input type="hidden" name="_csrf" value={props.c.get('session').csrf} />
          <label class="field" for="reason">
            Reason (required)
            <textarea id="reason" name="reason" rows={3} required maxlength={OVERRIDE_REASON_LIMIT}>
              {props.reason ?? ''}
            </textarea>
          </label>
          <div class="form-row">
            <button class="btn danger" type="submit">
              Override the ERP's refusal
            </button>
            <a class="btn" href={href}>
              Cancel
            </a>
          </div>
        </form>
      </section>
    </>
  );
}

async function refusedEvent(c: ConsoleContext, deps: ConsoleDeps) {
  const { connection, detail } = await pathEvent(c, deps);
  if (!detail)
    return {
      connection,
      page: errorPage(c, deps, 404, 'Not found', `No event ${c.req.param('id')} for connection ${connection}`),
    };
  if (detail.event.status !== 'rejected_by_erp')
    return {
      connection,
      page: errorPage(
        c,
        deps,
        409,
        'Refused',
        `Event ${detail.event.id} is not refused by the ERP: there is no refusal to override.`,
      ),
    };
  return { connection, detail };
}

/**
 * GET …/events/{id}/override: the confirmation, a form with the required reason (no script
 * needed); POST: the override (inbound/erp-refusal.ts), its audit entry written with it.
 */
export const registerEventOverride: PageRegistrar = (app, deps) => {
  const path = '/console/connections/:connection/events/:id{[0-9]+}/override';

  app.get(path, async (c) => {
    const found = await refusedEvent(c, deps);
    if (!found.detail) return found.page;
    return renderPage(
      c,
      `Override the ERP's refusal · event ${found.detail.event.id}`,
      frameFor(c, deps, found.connection, 'events'),
      <OverrideForm c={c} connection={found.connection} detail={found.detail} />,
    );
  });

  app.post(path, async (c) => {
    const found = await refusedEvent(c, deps);
    if (!found.detail) return found.page;
    const form = await c.req.parseBody();
    const reason = typeof form.reason === 'string' ? form.reason.trim() : '';
    const id = found.detail.event.id;
    const again = (status: 400 | 409, error: string) =>
      renderPage(
        c,
        `Override the ERP's refusal · event ${id}`,
        frameFor(c, deps, found.connection, 'events'),
        <OverrideForm c={c} connection={found.connection} detail={found.detail} error={error} reason={reason} />,
        status,
      );
    if (reason === '') {
      c.set('audit', { outcome: 'refused', detail: 'no reason given' });
      return again(400, 'Say why the document is processed against the ERP refusal.');
    }
    const session = c.get('session');
    const result = await overrideErpRefusal(deps, {
      id,
      reason: reason.slice(0, OVERRIDE_REASON_LIMIT),
      operator: session.operator,
      channel: 'console',
    });
    if (!result.ok) {
      c.set('audit', { outcome: 'refused', detail: `${result.reason}: ${reason}` });
      return again(409, `Event ${id} could not be overridden (${result.reason.replace('_', ' ')}).`);
    }
    c.set('audit', { recorded: true });
    setFlash(c, {
      tone: 'ok',
      message: `Event ${id} is processed against the ERP's refusal; your reason is in the audit trail.`,
    });
    return c.redirect(eventHref(found.connection, id), 303);
  });
};
