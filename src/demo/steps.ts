import type { DemoHarness, ErpFeedEntry } from './harness.js';

/** Codes of one scenario run: fresh ones each time, so a run never depends on an earlier one. */
export function scenarioCodes(run: string) {
  const p = `DEMO-${run}`;
  return {
    oil: `${p}-OIL`,
    rice: `${p}-RICE`,
    salt: `${p}-SALT`,
    lot: `L-${run}`,
    shop: `${p}-SHOP`,
    purchaseOrder: `${p}-PO`,
    expedition: `${p}-SO`,
    clientReturn: `${p}-RET`,
    flour: `${p}-FLOUR`,
    refusedOrder: `${p}-PO-R`,
  };
}
export type ScenarioCodes = ReturnType<typeof scenarioCodes>;

interface DiffLine {
  productExternalCode: string;
  difference: number;
  kind: string;
}

type Line = { productExternalCode: string; quantity: number; lotCode?: string | null };

const lineOf = (lines: unknown, product: string) => (lines as Line[]).find((l) => l.productExternalCode === product);
const show = (e: ErpFeedEntry) => `    feed #${e.id} ${e.type}: ${JSON.stringify(e.data.lines ?? e.data)}`;

export async function purchaseOrder(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  await h.put('products', {
    externalCode: c.oil,
    description: 'Olive oil 1 L (demo)',
    withLots: true,
    handlingUnit: 'UN',
    weight: 0.95,
  });
  await h.put('products', { externalCode: c.rice, description: 'Rice 1 kg (demo)', handlingUnit: 'UN', weight: 1 });
  await h.put('products', { externalCode: c.salt, description: 'Sea salt 500 g (demo)', handlingUnit: 'UN' });
  await h.put('documents', {
    externalCode: c.purchaseOrder,
    documentNumber: `PO ${c.purchaseOrder}`,
    documentType: 'PURCHASE_ORDER',
    lines: [
      { lineNumber: 1, quantity: 100, productExternalCode: c.oil },
      { lineNumber: 2, quantity: 50, productExternalCode: c.rice },
    ],
  });
  await h.synced('documents', c.purchaseOrder);
  h.out(`    ERP pushed ${c.purchaseOrder}: 100 × ${c.oil}, 50 × ${c.rice}`);

  const { receptionCode } = await h.action<{ receptionCode: string }>('/receptions', { documents: [c.purchaseOrder] });
  await h.action(`/receptions/${receptionCode}/lines`, {
    productExternalCode: c.oil,
    quantity: 90,
    lotCode: c.lot,
    expirationDate: '2027-12-31',
  });
  await h.action(`/receptions/${receptionCode}/lines`, { productExternalCode: c.rice, quantity: 60 });
  await h.action(`/receptions/${receptionCode}/lines`, { productExternalCode: c.salt, quantity: 5 });
  await h.action(`/receptions/${receptionCode}/close`, { observations: 'Two pallets, one damaged box of oil' });
  h.out(
    `    WMS reception ${receptionCode}: received 90 × oil (lot ${c.lot}), 60 × rice, 5 × salt (not ordered); closed`,
  );
  await h.settleWebhooks();

  const event = await h.nextEvent(
    'reception.closed',
    (e) => e.type === 'reception.closed' && e.data.documentExternalCode === c.purchaseOrder,
  );
  h.out(show(event));
  const differences = event.data.differences as {
    lines: DiffLine[];
    unknownProducts: { productExternalCode: string; received: number }[];
  } | null;
  const diff = (p: string) => differences?.lines.find((l) => l.productExternalCode === p);
  h.check(diff(c.oil)?.difference === -10 && diff(c.oil)?.kind === 'shortage', `shortage of 10 × ${c.oil}`);
  h.check(diff(c.rice)?.difference === 10 && diff(c.rice)?.kind === 'surplus', `surplus of 10 × ${c.rice}`);
  h.check(
    differences?.unknownProducts.some((u) => u.productExternalCode === c.salt && u.received === 5) === true,
    `5 × ${c.salt} received but not ordered`,
  );
  h.check(lineOf(event.data.lines, c.oil)?.lotCode === c.lot, `the oil line carries lot ${c.lot}`);
}

export async function expedition(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  await h.put('delivery-points', {
    externalCode: c.shop,
    active: true,
    name: 'Demo corner shop',
    types: ['CLIENT'],
    city: 'Porto',
    country: 'PT',
  });
  await h.put('documents', {
    externalCode: c.expedition,
    documentNumber: `SO ${c.expedition}`,
    documentType: 'CLIENT_EXPEDITION',
    deliveryPointExternalCode: c.shop,
    carrier: 'Demo Transportes',
    lines: [
      { lineNumber: 1, quantity: 30, productExternalCode: c.oil },
      { lineNumber: 2, quantity: 20, productExternalCode: c.rice },
    ],
  });
  await h.synced('documents', c.expedition);
  h.out(`    ERP pushed ${c.expedition} for ${c.shop}: 30 × oil, 20 × rice`);

  const { shippingOrderCode } = await h.action<{ shippingOrderCode: string }>('/shipping-orders', {
    document: c.expedition,
  });
  await h.action(`/shipping-orders/${shippingOrderCode}/pick`, {});
  await h.action(`/shipping-orders/${shippingOrderCode}/pack`, {
    packings: [
      { ref: 'box-1', grossWeight: 29.5, lines: [{ productExternalCode: c.oil, quantity: 30, lotCode: c.lot }] },
      { ref: 'box-2', grossWeight: 20.6, lines: [{ productExternalCode: c.rice, quantity: 20 }] },
    ],
  });
  await h.action(`/shipping-orders/${shippingOrderCode}/dispatch`, {});
  h.out(`    WMS shipping order ${shippingOrderCode}: picked, packed into two boxes, dispatched`);
  await h.settleWebhooks();

  const event = await h.nextEvent(
    'shipment.closed',
    (e) => e.type === 'shipment.closed' && e.data.documentExternalCode === c.expedition,
  );
  h.out(show(event));
  h.check(
    lineOf(event.data.lines, c.oil)?.quantity === 30 && lineOf(event.data.lines, c.rice)?.quantity === 20,
    'shipped 30 × oil and 20 × rice',
  );
  const packing = event.data.packingList as { lines: unknown[] }[] | null;
  h.check(packing?.length === 2, `packing list of 2 packings (got ${packing?.length ?? 0})`);
  h.check(event.data.deliveryPointExternalCode === c.shop, `delivered to ${c.shop}`);
}

export async function clientReturn(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  await h.put('documents', {
    externalCode: c.clientReturn,
    documentNumber: `RET ${c.clientReturn}`,
    documentType: 'CLIENT_RETURN',
    deliveryPointExternalCode: c.shop,
    lines: [{ lineNumber: 1, quantity: 5, productExternalCode: c.oil, lotCode: c.lot }],
  });
  await h.synced('documents', c.clientReturn);
  const { receptionCode } = await h.action<{ receptionCode: string }>('/receptions', { documents: [c.clientReturn] });
  await h.action(`/receptions/${receptionCode}/lines`, { productExternalCode: c.oil, quantity: 5, lotCode: c.lot });
  await h.action(`/receptions/${receptionCode}/close`, {});
  h.out(`    WMS reception ${receptionCode}: 5 × oil returned by the shop; closed`);
  await h.settleWebhooks();

  const event = await h.nextEvent(
    'client_return.closed',
    (e) => e.type === 'client_return.closed' && e.data.documentExternalCode === c.clientReturn,
  );
  h.out(show(event));
  h.check(lineOf(event.data.lines, c.oil)?.quantity === 5, 'returned 5 × oil');
}

export async function regularizations(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  await h.action('/stock/regularizations', { productExternalCode: c.rice, quantity: 2 });
  await h.settleWebhooks();
  const adjusted = await h.nextEvent(
    'stock.adjusted',
    (e) => e.type === 'stock.adjusted' && e.data.productExternalCode === c.rice,
  );
  h.out(show(adjusted));
  h.check(adjusted.data.quantity === 2, 'count found 2 more rice: stock.adjusted +2');

  // The next stock-regularization webhook is not sent: the spec says the WMS never re-sends it.
  const fault = await h.control.post<{ id: string }>('/_emulator/faults', {
    scope: 'webhook',
    path: '**/stock-regularization',
    drop: true,
    count: 1,
  });
  if (fault.status !== 201) throw new Error(`could not inject the webhook fault: HTTP ${fault.status}`);
  await h.action('/stock/regularizations', { productExternalCode: c.rice, quantity: -4 });
  await h.settleWebhooks();
  type Delivery = {
    resendable: boolean;
    error: string | null;
    request: { body: { productExternalCode?: string; quantity?: number } };
  };
  const log = await h.control.get<Delivery[]>(`${h.tenantPath}/webhook-log?kind=stock-regularization&status=failed`);
  const lost = (log.body ?? []).filter(
    (d) => d.request.body.productExternalCode === c.rice && d.request.body.quantity === -4,
  );
  h.out('    WMS regularized −4 rice; its webhook was lost on the way (fault injected)');
  h.check(
    lost.length === 1 && !lost[0]!.resendable,
    `the emulator logged it as failed (${lost[0]?.error ?? 'not found'}), not re-sendable`,
  );
}

export async function reconciliation(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  const started = await h.erp.post<{ id: number }>('/erp/v1/reconciliations', {});
  if (started.status !== 202 && started.status !== 200)
    throw new Error(`start reconciliation: HTTP ${started.status} ${JSON.stringify(started.body)}`);
  const id = started.body.id;
  type Item = { productExternalCode: string; lotCode: string | null; status: string; delta: number | null };
  type Run = { status: string; rowsChecked: number; driftCount: number; items: Item[] };
  h.out(`    reconciliation ${id} queued: endpoint 7 in batches; differences are asked again after the settle window`);
  const run = await h.eventually(`reconciliation ${id}`, async () => {
    const r = await h.erp.get<Run>(`/erp/v1/reconciliations/${id}?itemsLimit=1000`);
    return r.status === 200 && !['queued', 'running'].includes(r.body.status) ? r.body : undefined;
  });
  const drift = run.items.filter((i) => i.status === 'drift');
  h.out(
    `    reconciliation ${id}: ${run.status}, ${run.rowsChecked} rows checked, drift: ${drift.map((d) => `${d.productExternalCode} ${d.delta}`).join(', ') || 'none'}`,
  );
  h.check(run.status === 'completed', 'the reconciliation completed');
  h.check(
    drift.length === 1 && drift[0]!.productExternalCode === c.rice && drift[0]!.delta === -4,
    `exactly one drift: ${c.rice} −4`,
  );
  const event = await h.nextEvent(
    'stock.drift',
    (e) => e.type === 'stock.drift' && e.data.productExternalCode === c.rice,
  );
  h.out(show(event));
  h.check(event.data.delta === -4, 'the ERP feed tells the ERP to apply −4 rice');
}
