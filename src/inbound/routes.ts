import { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../deps.js';
import { authRefusal } from '../lib/auth-failures.js';
import { unavailable } from '../lib/errors.js';
import { eventLog } from '../lib/event-log.js';
import type { AppEnv } from '../lib/http.js';
import { createAckWriter } from './ack-writer.js';
import { webhookAuthenticator } from './auth.js';
import { acknowledgeClose, closeAckMetrics, closeAckPlan } from './close-ack.js';
import { type IngestContext, ingest } from './ingest.js';
import { WEBHOOK_KINDS } from './kinds.js';
import { inboundMetrics, registerInboundGauges } from './metrics.js';
import { webhookRoute } from './route-definitions.js';

const ACCEPTED = { success: true } as const;
const REPEATED = { success: true, message: 'Already received: acknowledged again, not processed again' } as const;

/**
 * `POST /webhooks/{connection}/{kind}` for the five webhook kinds. Thin: authenticate, read the raw
 * body, hand it to `ingest`, map the outcome. One writer per app, so webhooks to every route
 * share group commits.
 */
export function inboundRoutes(deps: ServiceDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  const metrics = inboundMetrics(deps.metrics);
  registerInboundGauges(deps.metrics, deps);
  const auth = webhookAuthenticator(deps.connections);
  const writer = createAckWriter(deps, (batch) => metrics.commitBatchSize.observe(batch.size));
  const ackMetrics = closeAckMetrics(deps.metrics);
  // From 0, so the first refusal is an increase for the alert rules (a series born at 1 is not one).
  for (const { name } of deps.connections.all()) ackMetrics.answers.inc({ connection: name, outcome: 'rejected' }, 0);
  app.openAPIRegistry.registerComponent('securitySchemes', 'webhookBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'The Basic credentials configured for the connection (two at once while rotating)',
  });

  for (const kind of WEBHOOK_KINDS) {
    const route = webhookRoute(kind);
    app.openAPIRegistry.registerPath(route);
    app.post(route.getRoutingPath(), async (c) => {
      const started = performance.now();
      const name = c.req.param('connection');
      const checked = auth.authenticate(name, c.req.header('authorization'));
      if ('refused' in checked) {
        if (deps.connections.get(name)) metrics.authFailures.inc({ connection: name });
        throw authRefusal(c, 'webhooks', 'basic', checked.refused);
      }
      const { connection } = checked;
      // Below the reserve, new events are refused so that what was acknowledged can still be processed.
      const short = deps.space.shortage();
      if (short) {
        metrics.ackSeconds.observe({ kind, outcome: 'unavailable' }, (performance.now() - started) / 1000);
        throw unavailable(`The data disk is short of space (${short}); the event was not acknowledged; send it again`);
      }
      const ctx: IngestContext = { writer, clock: deps.clock, metrics, log: c.get('log'), alerts: deps.alerts };
      const body = await c.req.text();
      const plan = closeAckPlan(connection, kind, deps.config);
      const outcome = await ingest(ctx, {
        connection: connection.name,
        kind,
        contentType: c.req.header('content-type'),
        body,
        requestId: c.get('requestId'),
        traceparent: deps.tracing.traceparent(),
        ...plan,
      });
      // From here on, the request's lines (its access line included) name the event they are about.
      if (outcome.ok) c.set('log', eventLog(c.get('log'), outcome.event.id, connection.name));
      // ERP_CLOSE_ACK=sync: the ERP decides before the WMS gets its answer (close-ack.ts).
      const answer =
        plan && outcome.ok
          ? await acknowledgeClose(
              { ...deps, log: c.get('log'), metrics: ackMetrics },
              { connection, kind, body, ...outcome },
            )
          : undefined;
      const label = outcome.ok
        ? answer?.success === false
          ? 'rejected_by_erp'
          : outcome.duplicate && !answer
            ? 'duplicate'
            : 'accepted'
        : outcome.reason === 'unavailable'
          ? 'unavailable'
          : 'rejected';
      metrics.ackSeconds.observe({ kind, outcome: label }, (performance.now() - started) / 1000);
      if (!outcome.ok) {
        if (outcome.reason === 'unavailable') deps.space.noteFailure(outcome.error.cause);
        throw outcome.error;
      }
      if (answer) return c.json(answer, 200);
      return c.json(outcome.duplicate ? REPEATED : ACCEPTED, 200);
    });
  }
  return app;
}
