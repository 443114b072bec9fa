import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * Carries "a job was sent to queue X" between the processes of one deployment on Postgres.
 * pg-boss 10 only polls: a `worker` process picked up what `serve`, the CLI or another worker sent
 * at its next poll (up to `QUEUE_POLL_INTERVAL_MS`, a second by default), and a short poll to hide
 * that cost the database a fetch per idle loop per interval: with 50 ms, the idle queues of two
 * worker processes made 280 empty fetches a second (bench:push run c), more than the pushes' own statements.
 *
 * Each process that works queues LISTENs on one connection of its own (not the pool's); a send
 * NOTIFYs after it is written. Polling stays as the fallback: a lost connection (reconnected with
 * backoff) or a notification that never came only delays a job to the next poll.
 */
export interface JobNotifier {
  /** Tells the other processes that `queue` has a new job (throttled per queue name). */
  notify(queue: string): void;
  /** Starts listening; `onWake` gets the names sent by other processes. */
  listen(onWake: (queue: string) => void): void;
  close(): Promise<void>;
}

export interface JobNotifierOptions {
  pool: pg.Pool;
  /** The queue's schema: deployments sharing a database but not a schema never wake each other. */
  schema: string;
  /** Reports a failed NOTIFY or a lost listening connection (never thrown: polling covers it). */
  onError: (err: Error) => void;
  /** One NOTIFY per queue name per this interval at most; a wake in between is sent at its end. */
  throttleMs?: number;
}

const THROTTLE_MS = 20;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

export function openJobNotifier(options: JobNotifierOptions): JobNotifier {
  // A channel is an identifier of at most 63 bytes; pg_notify takes it as text, LISTEN quoted.
  const channel = `wms_sync_jobs:${options.schema}`.slice(0, 63);
  const self = randomUUID();
  const throttleMs = options.throttleMs ?? THROTTLE_MS;
  const sending = new Map<string, { again: boolean }>();
  let closed = false;
  let listener: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let backoff = RECONNECT_MIN_MS;

  const send = (queue: string) => {
    const state = { again: false };
    sending.set(queue, state);
    options.pool
      .query('SELECT pg_notify($1, $2)', [channel, `${self}\u0001${queue}`])
      .catch((err: unknown) => options.onError(err as Error))
      .finally(() => {
        setTimeout(() => {
          sending.delete(queue);
          if (state.again && !closed) send(queue);
        }, throttleMs).unref();
      });
  };

  const connect = (onWake: (queue: string) => void) => {
    const client = new pg.Client(options.pool.options);
    listener = client;
    const lost = (err: Error) => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (closed) return;
      options.onError(err);
      reconnect = setTimeout(() => {
        reconnect = undefined;
        connect(onWake);
      }, backoff);
      reconnect.unref();
      backoff = Math.min(backoff * 2, RECONNECT_MAX_MS);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('the queue notification connection ended')));
    client.on('notification', (message) => {
      const [from, queue] = (message.payload ?? '').split('\u0001');
      if (from !== self && queue) onWake(queue);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${client.escapeIdentifier(channel)}`))
      .then(() => {
        backoff = RECONNECT_MIN_MS;
        // Woken for every queue: a job sent while this connection was down is fetched now, not at the next poll.
        onWake('*');
      })
      .catch((err: unknown) => lost(err as Error));
    // A listening connection must never keep a stopped process alive.
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  };

  return {
    notify(queue) {
      if (closed) return;
      const state = sending.get(queue);
      if (state) state.again = true;
      else send(queue);
    },
    listen(onWake) {
      if (!closed && !listener && !reconnect) connect(onWake);
    },
    async close() {
      closed = true;
      clearTimeout(reconnect);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
