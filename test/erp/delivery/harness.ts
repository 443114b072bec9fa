import { randomBytes } from 'node:crypto';
import { createPoster, type Poster } from '../../../src/erp/delivery/post.js';
import { DeliveryWorker, type PushConnection } from '../../../src/erp/delivery/worker.js';
import type { Clock } from '../../../src/lib/clock.js';
import type { Config } from '../../../src/lib/config.js';
import { silentLogger } from '../../../src/lib/logger.js';
import type { Store } from '../../../src/store/types.js';
import type { FeedEntryType } from '../../../src/store/values.js';
import { startTestService, type TestService, testConnection } from '../../support/service.js';
import { type Answer, type Receiver, startReceiver } from './receiver.js';

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface HarnessOptions {
  label: string;
  dialect?: 'sqlite' | 'postgres';
  clock?: Clock;
  settings?: Partial<Config['delivery']>;
  events?: FeedEntryType[];
  answer?: (id: string, body: Record<string, unknown>, hit: number) => Answer;
  /** Where the ERP endpoint is, when not the harness's own receiver (a misbehaving peer). */
  erpWebhookUrl?: string;
}

/**
 * A real store (SQLite file or Postgres schema), a real receiver verifying signatures, and
 * delivery workers built on demand (two of them share the store as two processes would).
 */
export async function deliveryHarness(options: HarnessOptions) {
  const secret = newSecret();
  const receiver: Receiver = await startReceiver(secret, options.answer ? { answer: options.answer } : {});
  const acme = testConnection('acme', {
    erpWebhookUrl: options.erpWebhookUrl ?? receiver.url,
    erpWebhookSecret: secret,
    ...(options.events ? { erpWebhookEvents: options.events } : {}),
  });
  const svc: TestService = await startTestService({
    label: options.label,
    dialect: options.dialect ?? 'sqlite',
    connections: [acme],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const settings: Config['delivery'] = {
    ...svc.deps.config.delivery,
    retryScheduleMs: [0, 1000, 1000, 1000],
    timeoutMs: 20_000,
    breakerFailures: 1000,
    // Tests wake the worker themselves; the poll only backs them up.
    pollMs: 50,
    ...options.settings,
  };
  const workers: { worker: DeliveryWorker; poster: Poster; stop: AbortController }[] = [];
  const push: PushConnection = { name: 'acme', erpWebhook: acme.erpWebhook! };
  let n = 0;
  return {
    svc,
    store: svc.deps.store,
    receiver,
    settings,
    connection: acme,
    /** A worker; with `store`, on a store of its own (a second process's view of the same database). */
    startWorker(overrides: Partial<Config['delivery']> = {}, store: Store = svc.deps.store) {
      const poster = createPoster({ timeoutMs: overrides.timeoutMs ?? settings.timeoutMs, maxSockets: 64 });
      const stop = new AbortController();
      const worker = new DeliveryWorker({
        store,
        clock: svc.deps.clock,
        logger: silentLogger(),
        settings: { ...settings, ...overrides },
        connections: [push],
        poster,
        stopping: stop.signal,
        owner: `w${workers.length + 1}`,
      });
      workers.push({ worker, poster, stop });
      worker.start();
      return worker;
    },
    /** Appends a feed event (a feed entry) the way processing does. */
    async append(type: FeedEntryType, data: Record<string, unknown>, store: Store = svc.deps.store) {
      const { feedEntry } = await store.feed.append({
        connection: 'acme',
        type,
        dedupeKey: `k${++n}`,
        data,
        at: svc.deps.clock.now(),
      });
      return feedEntry;
    },
    async close() {
      for (const w of workers) {
        w.stop.abort();
        await w.worker.stop();
        w.poster.close();
      }
      await receiver.close();
      await svc.close();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof deliveryHarness>>;
