import type { z } from 'zod';
import { issuesMessage } from '../../lib/zod-issues.js';
import type { ConsoleDeps } from '../env.js';
import type { NavId } from '../nav.js';
import { type ConsoleContext, frameFor, renderPage } from '../page.js';
import { Notice } from '../ui/detail.js';
import { PageHead } from '../ui/layout.js';

/** A query string the page cannot use (a hand-edited URL): 400 naming the parameter. */
export function badQuery(c: ConsoleContext, deps: ConsoleDeps, connection: string, active: NavId, error: z.ZodError) {
  return renderPage(
    c,
    'Bad request',
    frameFor(c, deps, connection, active),
    <>
      <PageHead title="This page cannot be shown" />
      <Notice tone="bad">{issuesMessage(error)}</Notice>
    </>,
    400,
  );
}

/** The console's error page (unknown connection, record or run; a refused action). */
export function errorPage(
  c: ConsoleContext,
  deps: ConsoleDeps,
  status: 400 | 404 | 409,
  title: string,
  message: string,
) {
  const name = c.req.param('connection');
  return renderPage(
    c,
    title,
    frameFor(c, deps, name && deps.connections.get(name) ? name : undefined, undefined),
    <>
      <PageHead title={title} />
      <Notice tone="bad">{message}</Notice>
      <p>
        <a href="/console">Back to the console</a>
      </p>
    </>,
    status,
  );
}
