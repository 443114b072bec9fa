import { fixture } from '../inbound/support.js';
import { basicAuth } from '../support/service.js';

export const CONNECTION = {
  CONNECTION_NAME: 'acme',
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'client-acme',
  WMS_CLIENT_SECRET: 'secret',
  WEBHOOK_USERNAME: 'wms-acme',
  WEBHOOK_PASSWORD: 'fault-test-password',
  ERP_API_TOKEN: 'erp-token-of-the-fault-test',
  RECONCILE_CRON: 'off',
  LOG_LEVEL: 'info',
};
const AUTH = basicAuth('wms-acme', 'fault-test-password');

/** A 2 KB reception close: the fixture with a note that pads it, as the run sent. */
function body(code: string): string {
  return JSON.stringify({ ...fixture('reception-close'), closingDocumentCode: code, comment: 'x'.repeat(1024) });
}

/** Webhooks sent by `senders` clients at once until stopped: what was answered, and when. */
export class Traffic {
  readonly acked = new Set<string>();
  readonly statuses = new Map<number, number>();
  /** When each answer came, with its status (ms since the epoch). */
  readonly answers: { at: number; status: number }[] = [];
  #n = 0;
  #stopped = false;
  readonly #clients: Promise<void>[];

  constructor(
    private readonly url: string,
    senders: number,
    private readonly prefix: string,
  ) {
    this.#clients = Array.from({ length: senders }, () => this.#client());
  }

  async #client(): Promise<void> {
    while (!this.#stopped) {
      this.#n += 1;
      const code = `${this.prefix}-${this.#n}`;
      let status = 0;
      try {
        const res = await fetch(`${this.url}/webhooks/acme/reception-close`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: body(code),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0; // no answer at all: counted apart, and no promise was made
      }
      if (status === 200) this.acked.add(code);
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      this.answers.push({ at: Date.now(), status });
      // A refusal is answered at once: a short pause keeps the senders from spinning on it.
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Answers with this status since `since`. */
  count(status: number, since = 0): number {
    return this.answers.filter((a) => a.at >= since && a.status === status).length;
  }

  /** Answers other than 200 since `since` (503s, and whatever else, which the tests then reject). */
  refusedSince(since: number): number {
    return this.answers.filter((a) => a.at >= since && a.status !== 200).length;
  }

  /** The first acknowledgement at or after `since`, or undefined. */
  firstAckAfter(since: number): number | undefined {
    return this.answers.find((a) => a.at >= since && a.status === 200)?.at;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#clients);
  }
}
