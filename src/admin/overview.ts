import { z } from '@hono/zod-openapi';
import type { ServiceDeps } from '../deps.js';
import { recentInbound, recentInboundSchema } from '../inbound/stats.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { probe } from '../lib/probe.js';
import { countRecords } from '../push/list.js';
import { listRuns, runSummarySchema } from '../reconcile/list-runs.js';
import { PUSH_ENTITIES } from '../store/index.js';
import { wmsTokenView } from '../wms-client/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PROBE_TIMEOUT_MS = 2000;

const stateCounts = z.object({ pending: z.int(), synced: z.int(), failed: z.int() });
const probeSchema = z.object({ ok: z.boolean(), message: z.string(), ms: z.number() });

export const overviewSchema = z
  .object({
    connection: z.string(),
    at: z.string().openapi({ format: 'date-time' }),
    inbound: recentInboundSchema.openapi({ description: 'Webhooks received in the last 24 h, by kind and outcome' }),
    attention: z
      .object({
        quarantined: z.int(),
        failed: z.int(),
        rejectedByErp: z.int().openapi({ description: 'Close documents the ERP refused: ask it again, or override' }),
      })
      .openapi({ description: 'Inbound events waiting for an operator now, whenever they were received' }),
    pushes: z.object({
      entities: z.array(stateCounts.extend({ entity: z.enum(PUSH_ENTITIES) })),
      totals: stateCounts,
    }),
    queue: z
      .object({
        waiting: z.int(),
        ready: z.int().openapi({ description: 'Waiting jobs whose start time has come' }),
        oldestReadyAt: z.string().nullable().openapi({ format: 'date-time' }),
        oldestReadyAgeSeconds: z
          .number()
          .nullable()
          .openapi({ description: 'How long the oldest ready job has waited for a worker' }),
        active: z.int(),
        dead: z.int().openapi({ description: 'Jobs that failed their last attempt' }),
      })
      .openapi({ description: 'The job queue of the whole service (every connection shares it)' }),
    reconciliation: z.object({
      last: runSummarySchema.nullable().openapi({ description: 'The newest run, whatever its status' }),
    }),
    wms: z
      .object({
        tokenRequests: z.int(),
        tokenFailures: z.int(),
        tokenExpiresInSeconds: z
          .int()
          .nullable()
          .openapi({ description: 'Life left of the cached token; null when none is cached' }),
        calls: z.int().openapi({ description: 'Calls to the WMS API (token requests not included)' }),
        callsUnavailable: z.int().openapi({
          description: 'Calls the WMS did not answer well: no answer, 409, 429 or 5xx (retried by themselves)',
        }),
        callsRefused: z
          .int()
          .openapi({ description: 'Calls the WMS refused with another 4xx: data to fix in the ERP' }),
      })
      .openapi({ description: "This process's token requests and calls to the connection's WMS since it started" }),
    health: z.object({ store: probeSchema, queue: probeSchema }),
  })
  .openapi('ConnectionOverview');
export type ConnectionOverview = z.infer<typeof overviewSchema>;

/**
 * Whether everything flows for one connection, in one read: what the WMS sent in the last 24 h
 * and how it was processed, the events that wait for an operator (of any age), what waits to be pushed or failed, the queue's backlog, the last
 * reconciliation, the WMS token's health, and whether the store and the queue answer.
 */
export async function connectionOverview(deps: ServiceDeps, connection: ConnectionConfig): Promise<ConnectionOverview> {
  const now = deps.clock.now();
  const [inbound, quarantined, failed, rejectedByErp, pushes, backlog, jobs, runs, store, queue] = await Promise.all([
    recentInbound(deps.store, connection.name, new Date(now.getTime() - DAY_MS)),
    deps.store.inbox.count({ connection: connection.name, status: 'quarantined' }),
    deps.store.inbox.count({ connection: connection.name, status: 'failed' }),
    deps.store.inbox.count({ connection: connection.name, status: 'rejected_by_erp' }),
    countRecords(deps.store, connection.name),
    deps.queue.backlog(),
    deps.queue.counts(),
    listRuns(deps.store, { connection: connection.name, limit: 1 }),
    probe(() => deps.store.ping(), PROBE_TIMEOUT_MS),
    probe(() => deps.queue.ping(), PROBE_TIMEOUT_MS),
  ]);
  const entities = PUSH_ENTITIES.map((entity) => ({ entity, ...pushes[entity] }));
  const totals = { pending: 0, synced: 0, failed: 0 };
  for (const e of entities) for (const s of ['pending', 'synced', 'failed'] as const) totals[s] += e[s];
  const client = deps.wms.get(connection);
  const tokens = wmsTokenView(client.tokens);
  const tally = client.callTally();
  return {
    connection: connection.name,
    at: now.toISOString(),
    inbound,
    attention: { quarantined, failed, rejectedByErp },
    pushes: { entities, totals },
    queue: {
      waiting: backlog.waiting,
      ready: backlog.ready,
      oldestReadyAt: backlog.oldestReadyAt?.toISOString() ?? null,
      oldestReadyAgeSeconds: backlog.oldestReadyAt
        ? Math.max(0, (now.getTime() - backlog.oldestReadyAt.getTime()) / 1000)
        : null,
      active: jobs.active,
      dead: jobs.failed,
    },
    reconciliation: { last: runs.runs[0] ?? null },
    wms: {
      tokenRequests: tokens.requests,
      tokenFailures: tokens.failures,
      tokenExpiresInSeconds: tokens.expiresInSeconds,
      calls: tally.calls,
      callsUnavailable: tally.unavailable,
      callsRefused: tally.refused,
    },
    health: { store, queue },
  };
}
