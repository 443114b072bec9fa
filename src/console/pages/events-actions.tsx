import { retryEvent, retryMatching } from '../../inbound/retry-event.js';
import { issuesMessage } from '../../lib/zod-issues.js';
import { connectionBase } from '../nav.js';
import { frameFor, type PageRegistrar, pathConnection, renderPage, setFlash } from '../page.js';
import { ConfirmPanel } from '../ui/actions.js';
import { KeyValues } from '../ui/detail.js';
import { fmtTime } from '../ui/format.js';
import { PageHead } from '../ui/layout.js';
import { errorPage } from './errors.js';
import { pathEvent } from './event-detail.js';
import {
  type EventsFilter,
  eventHref,
  eventsFilterSchema,
  eventsHref,
  filterParams,
  inboxFilter,
  nonEmpty,
} from './events-query.js';
import { backTo } from './pushes-actions.js';

function describeFilter(f: EventsFilter): [string, string][] {
  return [
    ['Status', f.status ?? 'failed or quarantined'],
    ['Kind', f.kind ?? 'any'],
    ['Business code', f.code ?? 'any'],
    ['Received from (UTC)', f.from ? fmtTime(f.from) : 'any time'],
    ['Received before (UTC)', f.to ? fmtTime(f.to) : 'now'],
  ];
}

/**
 * POST …/events/{id}/retry (one event), and the bulk retry of a filter: GET …/events/retry?filter
 * (a confirmation with the count, the admin API's dry run) then POST …/events/retry (the same
 * function, for real). Both through the inbound room's functions behind the admin API.
 */
export const registerEventsActions: PageRegistrar = (app, deps) => {
  app.post('/console/connections/:connection/events/:id{[0-9]+}/retry', async (c) => {
    const { connection, detail } = await pathEvent(c, deps);
    if (!detail)
      return errorPage(c, deps, 404, 'Not found', `No event ${c.req.param('id')} for connection ${connection}`);
    const id = detail.event.id;
    const result = await retryEvent(deps, id);
    if (!result.ok) {
      const why = {
        not_found: `Event ${id} no longer exists.`,
        rejected: `Event ${id} was refused on arrival: there is nothing to process; the WMS must send a corrected webhook.`,
        pruned: `Event ${id}'s body was pruned by retention: there is nothing left to process.`,
        no_erp: `The ERP refused event ${id} and this connection has no ERP webhook to ask again: override the refusal, with a reason, if it must be processed.`,
      };
      setFlash(c, { tone: 'bad', message: why[result.reason] });
    } else if (result.erp?.decision === 'rejected') {
      setFlash(c, {
        tone: 'bad',
        message: `The ERP was asked again and still refuses event ${id}: ${result.erp.message}`,
      });
    } else if (result.erp?.decision === 'none') {
      setFlash(c, {
        tone: 'bad',
        message: `The ERP was asked again but did not decide (${result.erp.detail}): event ${id} stays refused.`,
      });
    } else {
      setFlash(c, {
        tone: 'ok',
        message: result.erp
          ? `The ERP accepts event ${id} now: it is queued for processing.`
          : `Event ${id} is queued for processing again.`,
      });
    }
    return c.redirect(await backTo(c, eventHref(connection, id)), 303);
  });

  app.get('/console/connections/:connection/events/retry', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = eventsFilterSchema.safeParse(nonEmpty(c.req.query()));
    if (!parsed.success) return errorPage(c, deps, 400, 'Bad request', issuesMessage(parsed.error));
    const f = parsed.data;
    const counted = await retryMatching(deps, inboxFilter(connection, f), { dryRun: true });
    if (!counted.ok) return errorPage(c, deps, 400, 'Bad request', counted.problem);
    const what = `${f.status ?? 'failed and quarantined'} event${counted.matched === 1 ? '' : 's'}`;
    return renderPage(
      c,
      'Retry inbound events',
      frameFor(c, deps, connection, 'events'),
      <>
        <PageHead
          title="Retry inbound events"
          subtitle="Each matching failed or quarantined event goes back to received with a new processing job; quarantined ones are read again (their latest correction, else the original). Processed and rejected events are never touched."
        />
        <ConfirmPanel
          title={`Retry the ${what} of this filter`}
          count={counted.matched}
          what={what}
          details={<KeyValues items={describeFilter(f)} />}
          action={`${connectionBase(connection)}/events/retry`}
          csrf={c.get('session').csrf}
          fields={filterParams(f)}
          cancelHref={eventsHref(connection, f)}
          label={`Retry ${counted.matched.toLocaleString('en-US')} now`}
        />
      </>,
    );
  });

  app.post('/console/connections/:connection/events/retry', async (c) => {
    const connection = pathConnection(c, deps).name;
    const parsed = eventsFilterSchema.safeParse(nonEmpty(await c.req.parseBody()));
    if (!parsed.success) return errorPage(c, deps, 400, 'Bad request', issuesMessage(parsed.error));
    const f = parsed.data;
    const result = await retryMatching(deps, inboxFilter(connection, f), { dryRun: false });
    if (!result.ok) return errorPage(c, deps, 400, 'Bad request', result.problem);
    const skipped = result.matched - result.retried;
    setFlash(c, {
      tone: 'ok',
      message: `${result.retried.toLocaleString('en-US')} event(s) queued for processing again${skipped > 0 ? ` (${skipped} had left failed/quarantined meanwhile)` : ''}.`,
    });
    return c.redirect(eventsHref(connection, f), 303);
  });
};
