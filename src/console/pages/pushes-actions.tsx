import { errorMessage } from '../../lib/errors.js';
import { acceptCancel } from '../../push/cancel.js';
import { countRecords } from '../../push/list.js';
import { retryFailed } from '../../push/retry.js';
import { retryOne } from '../../push/retry-one.js';
import { consoleNext } from '../auth/guard.js';
import { connectionBase } from '../nav.js';
import { type ConsoleContext, frameFor, type PageRegistrar, pathConnection, renderPage, setFlash } from '../page.js';
import { ActionButton, ConfirmPanel } from '../ui/actions.js';
import { PageHead } from '../ui/layout.js';
import { withQuery } from '../ui/table.js';
import { errorPage } from './errors.js';
import { ENTITY_LABELS } from './overview.js';
import { isEntity } from './push-detail.js';
import { recordHref } from './pushes-list.js';

/** Back to where the action was clicked (a console page only), or to `fallback`. */
export async function backTo(c: ConsoleContext, fallback: string): Promise<string> {
  const next = (await c.req.parseBody()).next;
  return consoleNext(next) ?? fallback;
}

/** POST retry of one record, POST cancel of a document, and the bulk retry of failed records (confirm, then POST). */
export const registerPushesActions: PageRegistrar = (app, deps) => {
  app.post('/console/connections/:connection/pushes/:entity/:code/retry', async (c) => {
    const connection = pathConnection(c, deps).name;
    const { entity, code } = c.req.param();
    if (!isEntity(entity)) return errorPage(c, deps, 404, 'Not found', `No record kind "${entity}"`);
    const result = await retryOne(deps, connection, entity, code);
    if (result.outcome === 'not-found')
      return errorPage(c, deps, 404, 'Not found', `No ${entity} ${code} for connection ${connection}`);
    const messages = {
      queued: { tone: 'ok' as const, message: `${code}: queued for another push now.` },
      busy: {
        tone: 'info' as const,
        message: `${code} is being pushed right now: its outcome shows here in a moment.`,
      },
      'in-sync': { tone: 'info' as const, message: `${code} is synced: nothing to retry.` },
    };
    setFlash(c, messages[result.outcome]);
    return c.redirect(await backTo(c, recordHref(connection, entity, code)), 303);
  });

  // Cancelling cannot be undone: the page asks first, the same with scripts or without.
  app.get('/console/connections/:connection/pushes/document/:code/cancel', async (c) => {
    const connection = pathConnection(c, deps).name;
    const code = c.req.param('code');
    if (!(await deps.store.pushes.get(connection, 'document', code)))
      return errorPage(c, deps, 404, 'Not found', `No document ${code} for connection ${connection}`);
    const href = recordHref(connection, 'document', code);
    return renderPage(
      c,
      `Cancel ${code}`,
      frameFor(c, deps, connection, 'pushes'),
      <>
        <PageHead title={`Cancel document ${code}`} crumbs={<a href={href}>{code}</a>} />
        <section class="card">
          <h2>Cancel this document in the WMS?</h2>
          <p>
            The WMS cancels a document only while the warehouse has not started it; a cancelled document cannot be
            reopened.
          </p>
          <div class="form-row">
            <ActionButton
              action={`${href}/cancel`}
              csrf={c.get('session').csrf}
              label={`Yes, cancel ${code}`}
              variant="danger"
              fields={{ confirmed: 'yes' }}
            />
            <a class="btn" href={href}>
              Keep it
            </a>
          </div>
        </section>
      </>,
    );
  });

  app.post('/console/connections/:connection/pushes/document/:code/cancel', async (c) => {
    const connection = pathConnection(c, deps).name;
    const code = c.req.param('code');
    if (!(await deps.store.pushes.get(connection, 'document', code)))
      return errorPage(c, deps, 404, 'Not found', `No document ${code} for connection ${connection}`);
    // A cancel sent without the confirmation's answer is asked again, never carried out.
    if ((await c.req.parseBody()).confirmed !== 'yes')
      return c.redirect(`${recordHref(connection, 'document', code)}/cancel`, 303);
    try {
      const { changed } = await acceptCancel(deps, connection, code);
      setFlash(c, {
        tone: 'ok',
        message: changed ? `Cancel of ${code} queued for the WMS.` : `A cancel of ${code} was already on its way.`,
      });
    } catch (err) {
      setFlash(c, { tone: 'bad', message: `Cancel of ${code} refused: ${errorMessage(err)}` });
    }
    return c.redirect(recordHref(connection, 'document', code), 303);
  });

  app.get('/console/connections/:connection/pushes/retry-failed', async (c) => {
    const connection = pathConnection(c, deps).name;
    const entity = c.req.query('entity');
    if (entity !== undefined && !isEntity(entity))
      return errorPage(c, deps, 400, 'Bad request', `No record kind "${entity}"`);
    const counts = await countRecords(deps.store, connection);
    const failed = entity ? counts[entity].failed : Object.values(counts).reduce((n, s) => n + s.failed, 0);
    const what = entity ? `failed ${ENTITY_LABELS[entity].toLowerCase()}` : 'failed records of every kind';
    const list = withQuery(`${connectionBase(connection)}/pushes`, { entity: entity ?? 'product', state: 'failed' });
    return renderPage(
      c,
      'Retry failed records',
      frameFor(c, deps, connection, 'pushes'),
      <>
        <PageHead
          title="Retry failed records"
          subtitle="Each goes back to pending with a new push job. Fix the cause first (in the WMS, or a record it uses)."
        />
        <ConfirmPanel
          title={`Retry ${what}`}
          count={failed}
          what={what}
          action={`${connectionBase(connection)}/pushes/retry-failed`}
          csrf={c.get('session').csrf}
          fields={entity ? { entity } : {}}
          cancelHref={list}
          label={`Retry ${failed.toLocaleString('en-US')} now`}
        />
      </>,
    );
  });

  app.post('/console/connections/:connection/pushes/retry-failed', async (c) => {
    const connection = pathConnection(c, deps).name;
    const entity = (await c.req.parseBody()).entity;
    if (entity !== undefined && (typeof entity !== 'string' || !isEntity(entity)))
      return errorPage(c, deps, 400, 'Bad request', 'No such record kind');
    const retried = await retryFailed(deps, connection, entity);
    setFlash(c, { tone: 'ok', message: `${retried.length.toLocaleString('en-US')} failed record(s) queued again.` });
    return c.redirect(withQuery(`${connectionBase(connection)}/pushes`, { entity: entity ?? 'product' }), 303);
  });
};
