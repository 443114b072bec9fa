import { expectStatus, JsonHttp } from './http.js';

export interface ErpFeedEntry {
  id: number;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface DemoTargets {
  serviceUrl: string;
  emulatorUrl: string;
  tenant: string;
  erpToken: string;
  adminToken?: string;
  /** The sample ERP (src/demo/sample-erp.ts), when wired: the refusal step talks to it. */
  erpUrl?: string;
}

/** What a scenario step uses: the ERP API, the emulator's control API, the feed, and checks. */
export class DemoHarness {
  readonly erp: JsonHttp;
  readonly control: JsonHttp;
  readonly tenantPath: string;
  readonly failures: string[] = [];
  #cursor = 0;

  constructor(
    readonly targets: DemoTargets,
    readonly out: (line: string) => void,
    readonly timeoutMs = 30_000,
  ) {
    this.erp = new JsonHttp(targets.serviceUrl, { authorization: `Bearer ${targets.erpToken}` });
    this.control = new JsonHttp(
      targets.emulatorUrl,
      targets.adminToken ? { authorization: `Bearer ${targets.adminToken}` } : {},
    );
    this.tenantPath = `/_emulator/tenants/${targets.tenant}`;
  }

  /** Moves the feed cursor past every event already there, so a step only sees what it caused. */
  async skipExistingEvents(): Promise<void> {
    for (;;) {
      const page = expectStatus(
        await this.erp.get<{ entries: ErpFeedEntry[]; next: number }>(`/erp/v1/feed?after=${this.#cursor}&limit=1000`),
        200,
        'read the ERP feed',
      );
      if (page.entries.length === 0) return;
      this.#cursor = page.next;
    }
  }

  /** Polls until `read` returns a value (the demo runs against live processes: no event to await). */
  async eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${this.timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** The next feed entries, up to and including the first that matches. */
  async nextEvent(what: string, match: (e: ErpFeedEntry) => boolean): Promise<ErpFeedEntry> {
    return this.eventually(what, async () => {
      const page = expectStatus(
        await this.erp.get<{ entries: ErpFeedEntry[]; next: number }>(`/erp/v1/feed?after=${this.#cursor}&limit=100`),
        200,
        'read the ERP feed',
      );
      for (const event of page.entries) {
        this.#cursor = event.id;
        if (match(event)) return event;
      }
      return undefined;
    });
  }

  async put(
    kind: 'products' | 'delivery-points' | 'documents',
    body: { externalCode: string; [field: string]: unknown },
  ): Promise<void> {
    expectStatus(
      await this.erp.put(`/erp/v1/${kind}/${encodeURIComponent(body.externalCode)}`, body),
      [200, 202],
      `PUT ${kind} ${body.externalCode}`,
    );
  }

  /** Waits until the service has pushed a record to the WMS (documents wait for their references). */
  async synced(kind: 'products' | 'delivery-points' | 'documents', code: string): Promise<void> {
    await this.eventually(`${kind} ${code} synced`, async () => {
      const record = expectStatus(
        await this.erp.get<{ state: string; lastError: unknown }>(`/erp/v1/${kind}/${encodeURIComponent(code)}`),
        200,
        `GET ${kind} ${code}`,
      );
      if (record.state === 'failed')
        throw new Error(`${kind} ${code} failed to sync: ${JSON.stringify(record.lastError)}`);
      return record.state === 'synced' ? true : undefined;
    });
  }

  /** A warehouse action on the emulator's control API. */
  async action<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
    return expectStatus(
      await this.control.post<T>(`${this.tenantPath}${path}`, body),
      [200, 201, 202],
      `emulator ${path}`,
    );
  }

  /** Waits until the emulator has delivered (or failed) every webhook it queued. */
  async settleWebhooks(): Promise<void> {
    const body = expectStatus(
      await this.control.post<{ settled: boolean; pending: number }>(`${this.tenantPath}/webhook-log/settle`, {
        timeoutMs: this.timeoutMs,
      }),
      200,
      'settle webhooks',
    );
    if (!body.settled) throw new Error(`${body.pending} webhooks still pending`);
  }

  check(condition: boolean, message: string): void {
    this.out(`    ${condition ? '✔' : '✘'} ${message}`);
    if (!condition) this.failures.push(message);
  }
}
