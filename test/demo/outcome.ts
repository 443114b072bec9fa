import { expect } from 'vitest';
import type { ScenarioCodes } from '../../src/demo/steps.js';

/**
 * What the demo scenario (src/demo/steps.ts) must leave behind, checked here on its own terms: the
 * steps drive the warehouse and report what they see, but a test that only trusted their report
 * would weaken unseen with them. Every figure below is written out from the scenario's story
 * (order 100 oil and 50 rice, receive 90 oil in a lot, 60 rice and 5 salt nobody ordered; ship 30
 * oil and 20 rice in two boxes; 5 oil come back; rice +2 counted, then −4 whose webhook is lost).
 */

export interface ErpFeedEntry {
  id: number;
  type: string;
  data: Record<string, any>;
}

type Line = { productExternalCode: string; quantity: number; lotCode?: string | null };
const byProduct = <T extends { productExternalCode: string }>(lines: T[]) =>
  [...lines].sort((a, b) => a.productExternalCode.localeCompare(b.productExternalCode));

/** Every event of the ERP feed after `after`, read over HTTP as the ERP reads it. */
export async function readFeed(serviceUrl: string, erpToken: string, after = 0): Promise<ErpFeedEntry[]> {
  const events: ErpFeedEntry[] = [];
  for (let cursor = after; ; ) {
    const res = await fetch(`${serviceUrl}/erp/v1/feed?after=${cursor}&limit=100`, {
      headers: { authorization: `Bearer ${erpToken}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { entries: ErpFeedEntry[]; next: number };
    if (page.entries.length === 0) return events;
    events.push(...page.entries);
    cursor = page.next;
  }
}

/** The feed: these events, in this order, with these figures; `reconciled` adds the drift. */
export function expectScenarioFeed(events: ErpFeedEntry[], c: ScenarioCodes, options: { reconciled: boolean }): void {
  const ours = events.filter(
    (e) =>
      [c.purchaseOrder, c.expedition, c.clientReturn].includes(e.data.documentExternalCode) ||
      e.data.productExternalCode === c.rice,
  );
  expect(ours.map((e) => e.type)).toEqual([
    'reception.closed',
    'shipment.closed',
    'client_return.closed',
    'stock.adjusted',
    ...(options.reconciled ? ['stock.drift'] : []),
  ]);
  const [reception, shipment, clientReturn, adjusted, drift] = ours as [
    ErpFeedEntry,
    ErpFeedEntry,
    ErpFeedEntry,
    ErpFeedEntry,
    ErpFeedEntry | undefined,
  ];

  expect(reception.data).toMatchObject({ documentExternalCode: c.purchaseOrder, documentType: 'PURCHASE_ORDER' });
  expect(
    byProduct(reception.data.lines as Line[]).map(({ productExternalCode, quantity, lotCode }) => ({
      productExternalCode,
      quantity,
      lotCode,
    })),
  ).toEqual([
    { productExternalCode: c.oil, quantity: 90, lotCode: c.lot },
    { productExternalCode: c.rice, quantity: 60, lotCode: null },
    { productExternalCode: c.salt, quantity: 5, lotCode: null },
  ]);
  expect(reception.data.differences).toEqual({
    hasDifferences: true,
    lines: [
      { productExternalCode: c.oil, lotCode: null, ordered: 100, received: 90, difference: -10, kind: 'shortage' },
      { productExternalCode: c.rice, lotCode: null, ordered: 50, received: 60, difference: 10, kind: 'surplus' },
    ],
    unknownProducts: [{ productExternalCode: c.salt, lotCode: null, received: 5 }],
  });

  expect(shipment.data).toMatchObject({
    documentExternalCode: c.expedition,
    documentType: 'CLIENT_EXPEDITION',
    deliveryPointExternalCode: c.shop,
    carrier: 'Demo Transportes',
  });
  expect(
    byProduct(shipment.data.lines as Line[]).map(({ productExternalCode, quantity, lotCode }) => ({
      productExternalCode,
      quantity,
      lotCode,
    })),
  ).toEqual([
    { productExternalCode: c.oil, quantity: 30, lotCode: c.lot },
    { productExternalCode: c.rice, quantity: 20, lotCode: null },
  ]);
  const packings = shipment.data.packingList as { weight: number; lines: Line[] }[];
  expect(
    packings.map((p) => ({
      weight: p.weight,
      lines: p.lines.map(({ productExternalCode, quantity }) => ({ productExternalCode, quantity })),
    })),
  ).toEqual([
    { weight: 29.5, lines: [{ productExternalCode: c.oil, quantity: 30 }] },
    { weight: 20.6, lines: [{ productExternalCode: c.rice, quantity: 20 }] },
  ]);

  expect(clientReturn.data).toMatchObject({
    documentExternalCode: c.clientReturn,
    documentType: 'CLIENT_RETURN',
    differences: { hasDifferences: false },
  });
  expect(
    (clientReturn.data.lines as Line[]).map(({ productExternalCode, quantity, lotCode }) => ({
      productExternalCode,
      quantity,
      lotCode,
    })),
  ).toEqual([{ productExternalCode: c.oil, quantity: 5, lotCode: c.lot }]);

  // Only the +2: the −4's webhook was lost, so nothing but reconciliation can tell the ERP.
  expect(adjusted.data).toMatchObject({ productExternalCode: c.rice, lotCode: null, quantity: 2 });
  if (options.reconciled) {
    expect(drift!.data).toMatchObject({
      productExternalCode: c.rice,
      lotCode: null,
      delta: -4,
      wms: { existence: 38 },
      expected: { existence: 42 },
    });
  }
}

/** The service's ledger: what the webhooks that arrived moved (90 − 30 + 5 oil, 60 − 20 + 2 rice, 5 salt). */
export function expectScenarioLedger(
  totals: { productExternalCode: string; lotCode: string | null; quantity: number }[],
  c: ScenarioCodes,
): void {
  const ours = totals.filter((t) => [c.oil, c.rice, c.salt].includes(t.productExternalCode));
  expect(
    byProduct(ours).map(({ productExternalCode, lotCode, quantity }) => ({
      productExternalCode,
      lotCode: lotCode || null,
      quantity,
    })),
  ).toEqual([
    { productExternalCode: c.oil, lotCode: c.lot, quantity: 65 },
    { productExternalCode: c.rice, lotCode: null, quantity: 42 },
    { productExternalCode: c.salt, lotCode: null, quantity: 5 },
  ]);
}

/**
 * The emulator, asked through its own APIs: the documents are executed, its stock is what the
 * warehouse did (the lost −4 included: 38 rice), and its webhook log holds four webhooks
 * answered by the service and the one regularization it could not send.
 */
export async function expectScenarioWms(
  emulatorUrl: string,
  tenant: string,
  client: { clientId: string; clientSecret: string },
  c: ScenarioCodes,
): Promise<void> {
  const api = `${emulatorUrl}/api/external/v1`;
  const token = await fetch(`${api}/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret }),
  });
  expect(token.status).toBe(200);
  const headers = {
    authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}`,
    'content-type': 'application/json',
  };

  // The Document DTO carries no status: it is a list filter (endpoint 8, `status.equals`).
  for (const code of [c.purchaseOrder, c.expedition, c.clientReturn]) {
    const executed = await fetch(
      `${api}/document?externalCode.equals=${encodeURIComponent(code)}&status.equals=EXECUTED`,
      { headers },
    );
    expect(executed.status).toBe(200);
    expect(
      ((await executed.json()) as { externalCode: string }[]).map((d) => d.externalCode),
      `${code} executed`,
    ).toEqual([code]);
  }

  const stock = await fetch(`${api}/product/stock`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ products: [c.oil, c.rice, c.salt].map((product) => ({ product })), groupedByLot: true }),
  });
  expect(stock.status).toBe(200);
  const rows = (await stock.json()) as { product: string; lot: string | null; existence: number }[];
  expect(
    rows
      .map(({ product, lot, existence }) => ({ product, lot: lot ?? null, existence }))
      .sort((a, b) => a.product.localeCompare(b.product)),
  ).toEqual([
    { product: c.oil, lot: c.lot, existence: 65 },
    { product: c.rice, lot: null, existence: 38 },
    { product: c.salt, lot: null, existence: 5 },
  ]);

  const log = await fetch(`${emulatorUrl}/_emulator/tenants/${tenant}/webhook-log`);
  expect(log.status).toBe(200);
  type Delivery = {
    kind: string;
    status: string;
    resendable: boolean;
    response: { status: number } | null;
    request: { body: Record<string, unknown> };
  };
  const ours = ((await log.json()) as Delivery[]).filter((d) =>
    [c.purchaseOrder, c.expedition, c.clientReturn, c.rice].includes(
      String(d.request.body.documentExternalCode ?? d.request.body.productExternalCode),
    ),
  );
  expect(ours.map((d) => [d.kind, d.status, d.response?.status ?? null, d.request.body.quantity ?? null])).toEqual([
    ['reception-close', 'succeeded', 200, null],
    ['shipping-order-close', 'succeeded', 200, null],
    ['client-return-close', 'succeeded', 200, null],
    ['stock-regularization', 'succeeded', 200, 2],
    ['stock-regularization', 'failed', null, -4],
  ]);
  // spec: "a failed stock regularization ... cannot be re-sent".
  expect(ours.at(-1)!.resendable).toBe(false);
}
