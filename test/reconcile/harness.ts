import { wireWebhooks } from '../../src/demo/wire.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { type Listening, listen } from '../../src/lib/listen.js';
import { requestRun } from '../../src/reconcile/request.js';
import type { ReconciliationRun } from '../../src/store/index.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';

/** Settings that keep runs short; the behaviour is the production one. */
export const RECONCILE_TEST_ENV = {
  RECONCILE_CRON: 'off',
  RECONCILE_BATCH_SIZE: '2',
  RECONCILE_PARALLELISM: '2',
  RECONCILE_SETTLE_SECONDS: '1',
  QUEUE_POLL_INTERVAL_MS: '50',
  INBOUND_RETRY_DELAY_SECONDS: '0',
  WMS_TIMEOUT_MS: '5000',
};

export interface Line {
  product: string;
  quantity: number;
  lot?: string;
}

let seq = 0;

/**
 * The real service (receiver, inbound processing and reconciliation workers) listening on a port,
 * and the real emulator over HTTP sending it its webhooks; the service's WMS calls go through a
 * faulty proxy in front of the emulator (`proxy`), and the webhooks through another in front of
 * the service (`hooks`). The test drives the warehouse like an operator would
 * (control API) and pushes master data like an ERP would (the WMS API).
 */
export class ReconcileHarness {
  private constructor(
    readonly wms: RunningEmulator,
    readonly proxy: FaultyProxy,
    readonly hooks: FaultyProxy,
    readonly svc: TestService,
    readonly http: Listening,
    readonly acme: ConnectionConfig,
  ) {}

  static async start(
    label: string,
    dialect: 'sqlite' | 'postgres',
    env: Record<string, string> = {},
  ): Promise<ReconcileHarness> {
    const wms = await startEmulator();
    const proxy = await startFaultyProxy(wms.url);
    const acme = wmsConnection('acme', proxy.url, await wms.tenant('acme'));
    const svc = await startTestService({
      label,
      dialect,
      connections: [acme],
      worker: true,
      env: { ...RECONCILE_TEST_ENV, ...env },
    });
    const http = await listen(svc.app.fetch, { port: 0, host: '127.0.0.1' });
    const hooks = await startFaultyProxy(http.url);
    const h = new ReconcileHarness(wms, proxy, hooks, svc, http, acme);
    const cred = acme.webhookCredentials[0]!;
    await wireWebhooks({
      emulatorUrl: wms.url,
      tenant: 'acme',
      serviceUrl: hooks.url,
      connection: 'acme',
      username: cred.username,
      password: cred.password,
      // Long: a test may hold a webhook at `hooks` for a while, and a busy machine is slow.
      timeoutMs: 30_000,
    });
    return h;
  }

  get store() {
    return this.svc.deps.store;
  }

  /** A control call that must succeed. */
  async ok(method: string, path: string, json?: unknown): Promise<any> {
    const reply = await this.wms.control(method, path, json);
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  /** A call to the WMS API as the ERP would make it (straight to the emulator, not through the proxy). */
  async api(method: string, path: string, json?: unknown): Promise<any> {
    const token = (await (
      await fetch(`${this.wms.url}/api/external/v1/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: this.acme.wms.clientId, client_secret: this.acme.wms.clientSecret }),
      })
    ).json()) as { access_token: string };
    const res = await fetch(`${this.wms.url}/api/external/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token.access_token}`,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    const body = (await res.json()) as unknown;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  product(code: string, withLots = false): Promise<unknown> {
    return this.api('POST', '/product', { externalCode: code, description: `Product ${code}`, withLots });
  }

  /** A purchase order received and closed: stock in, and a reception-close webhook. */
  async receive(lines: Line[]): Promise<void> {
    const doc = `PO-${process.pid}-${++seq}`;
    await this.api('POST', '/document', {
      externalCode: doc,
      documentNumber: doc,
      documentType: 'PURCHASE_ORDER',
      lines: lines.map((l, i) => ({
        lineNumber: i + 1,
        quantity: l.quantity,
        productExternalCode: l.product,
        ...(l.lot ? { lotCode: l.lot } : {}),
      })),
    });
    const reception = await this.ok('POST', '/tenants/acme/receptions', { documents: [doc] });
    for (const l of lines) {
      await this.ok('POST', `/tenants/acme/receptions/${reception.receptionCode}/lines`, {
        productExternalCode: l.product,
        quantity: l.quantity,
        ...(l.lot ? { lotCode: l.lot } : {}),
      });
    }
    await this.ok('POST', `/tenants/acme/receptions/${reception.receptionCode}/close`);
  }

  /** A client expedition picked and dispatched: stock out, and a shipping-order-close webhook. */
  async ship(lines: Line[]): Promise<void> {
    const doc = `CE-${process.pid}-${++seq}`;
    await this.api('POST', '/document', {
      externalCode: doc,
      documentNumber: doc,
      documentType: 'CLIENT_EXPEDITION',
      lines: lines.map((l, i) => ({
        lineNumber: i + 1,
        quantity: l.quantity,
        productExternalCode: l.product,
        ...(l.lot ? { lotCode: l.lot } : {}),
      })),
    });
    const order = await this.ok('POST', '/tenants/acme/shipping-orders', { document: doc });
    await this.ok('POST', `/tenants/acme/shipping-orders/${order.shippingOrderCode}/pick`, {
      lines: lines.map((l) => ({
        productExternalCode: l.product,
        quantity: l.quantity,
        ...(l.lot ? { lotCode: l.lot } : {}),
      })),
    });
    await this.ok('POST', `/tenants/acme/shipping-orders/${order.shippingOrderCode}/dispatch`);
  }

  /** A stock regularization in the warehouse: one stock-regularization webhook (unless a fault stops it). */
  regularize(product: string, quantity: number, lot?: string): Promise<{ movementTime: string; webhookIds: number[] }> {
    return this.ok('POST', '/tenants/acme/stock/regularizations', {
      productExternalCode: product,
      quantity,
      ...(lot ? { lotCode: lot } : {}),
    });
  }

  /** Every webhook sent, and every event the service received processed. */
  async settled(): Promise<void> {
    const reply = await this.ok('POST', '/tenants/acme/webhook-log/settle', { timeoutMs: 10_000 });
    if (!reply.settled) throw new Error('emulator webhooks did not settle');
    await until(async () => (await this.store.inbox.countByStatus()).received === 0, {
      message: 'inbound events processed',
    });
  }

  /** Asks for a run as the API does, and waits for the worker to finish it. */
  async reconcile(timeoutMs = 15_000): Promise<ReconciliationRun> {
    const { run } = await requestRun(this.svc.deps, 'acme', 'api');
    return this.finished(run.id, timeoutMs);
  }

  finished(id: number, timeoutMs = 15_000): Promise<ReconciliationRun> {
    return until(
      async () => {
        const run = await this.store.reconciliation.getRun(id);
        return run && ['completed', 'partial', 'failed'].includes(run.status) ? run : undefined;
      },
      { timeoutMs, message: `run ${id} finished` },
    );
  }

  items(runId: number) {
    return this.store.reconciliation.listItems(runId, { limit: 1000 });
  }

  async driftFeed(): Promise<{ id: number; type: string; data: any }[]> {
    const res = await this.svc.app.request('/erp/v1/feed?limit=1000', {
      headers: { authorization: `Bearer ${this.acme.erpApiToken}` },
    });
    const page = (await res.json()) as { entries: { id: number; type: string; data: any }[] };
    return page.entries.filter((e) => e.type === 'stock.drift');
  }

  async close(): Promise<void> {
    await this.hooks.close();
    await this.http.close(0);
    await this.svc.close();
    await this.proxy.close();
    await this.wms.close();
  }
}
