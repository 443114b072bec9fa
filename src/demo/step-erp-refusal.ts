import { CLOSE_DOCUMENT_RECEIVED } from '../inbound/close-ack.js';
import type { DemoHarness } from './harness.js';
import { expectStatus, JsonHttp } from './http.js';
import type { ScenarioCodes } from './steps.js';

type Integration = { status: string; message: string | null };
type Reception = { closingDocuments: { closingDocumentCode: string; integration: Integration }[] };
type Delivery = { id: number; status: string; response: { status: number; body: unknown } | null };
type ErpMessage = { type: string; webhookId: string; answer: { body: { success: boolean; message?: string } } };

/**
 * The ERP says no (ERP_CLOSE_ACK=sync, docs/erp-delivery.md): the sample ERP is told to refuse a
 * purchase order; the warehouse closes its reception; the service forwards the close document to
 * the ERP, passes its `{success:false, message}` back to the WMS, and the emulator shows the
 * operator that message. The ERP then lifts its refusal, the operator re-sends, and the reception
 * reaches the feed.
 */
export async function erpRefusal(h: DemoHarness, c: ScenarioCodes): Promise<void> {
  if (!h.targets.erpUrl) {
    h.out(
      '    skipped: no sample ERP wired (`wms-sync start` wires one unless --no-sample-erp; `wms-sync demo --erp URL`)',
    );
    return;
  }
  const erp = new JsonHttp(h.targets.erpUrl);
  await h.put('products', {
    externalCode: c.flour,
    description: 'Wheat flour 1 kg (demo)',
    handlingUnit: 'UN',
    weight: 1,
  });
  await h.put('documents', {
    externalCode: c.refusedOrder,
    documentNumber: `PO ${c.refusedOrder}`,
    documentType: 'PURCHASE_ORDER',
    lines: [{ lineNumber: 1, quantity: 40, productExternalCode: c.flour }],
  });
  await h.synced('documents', c.refusedOrder);
  const reason = `Purchase order ${c.refusedOrder} is already closed in the ERP: reopen it before receiving`;
  expectStatus(
    await erp.put(`/reject/${encodeURIComponent(c.refusedOrder)}`, { message: reason }),
    200,
    'tell the sample ERP to refuse',
  );
  h.out(
    `    ERP pushed ${c.refusedOrder}: 40 × ${c.flour}; then closed it on its side (the sample ERP will refuse it)`,
  );

  const { receptionCode } = await h.action<{ receptionCode: string }>('/receptions', { documents: [c.refusedOrder] });
  await h.action(`/receptions/${receptionCode}/lines`, { productExternalCode: c.flour, quantity: 40 });
  await h.action(`/receptions/${receptionCode}/close`, {});
  await h.settleWebhooks();
  const closing = (await reception(h, receptionCode)).closingDocuments[0];
  h.out(
    `    WMS reception ${receptionCode}: closed; the operator sees: integration ${closing?.integration.status}: "${closing?.integration.message}"`,
  );
  h.check(
    closing?.integration.status === 'failed' && closing.integration.message === reason,
    "the emulator shows the operator the ERP's reason",
  );
  const refused = (await deliveries(h, closing?.closingDocumentCode ?? '')).at(-1);
  h.check(
    refused?.response?.status === 200 &&
      JSON.stringify(refused.response.body) === JSON.stringify({ success: false, message: reason }),
    `the service answered the WMS {success:false, message} (emulator webhook log: ${JSON.stringify(refused?.response?.body)})`,
  );
  const asked = expectStatus(
    await erp.get<{ messages: ErpMessage[] }>(
      `/messages?type=${CLOSE_DOCUMENT_RECEIVED}&code=${encodeURIComponent(c.refusedOrder)}`,
    ),
    200,
    'read the sample ERP',
  );
  h.check(
    asked.messages.length === 1 && asked.messages[0]!.answer.body.success === false,
    `the sample ERP got one signed ${CLOSE_DOCUMENT_RECEIVED} and refused it`,
  );

  expectStatus(await erp.request('DELETE', `/reject/${encodeURIComponent(c.refusedOrder)}`), 204, 'lift the refusal');
  expectStatus(
    await h.control.post(`${h.tenantPath}/webhook-log/${refused?.id}/resend`),
    202,
    're-send the close document',
  );
  await h.settleWebhooks();
  h.out(`    ERP reopened ${c.refusedOrder}; the operator re-sent the reception's webhook`);
  const event = await h.nextEvent(
    'reception.closed',
    (e) => e.type === 'reception.closed' && e.data.documentExternalCode === c.refusedOrder,
  );
  h.out(`    feed #${event.id} ${event.type}: ${JSON.stringify(event.data.lines)}`);
  const after = (await reception(h, receptionCode)).closingDocuments[0];
  h.check(after?.integration.status === 'succeeded', 'accepted this time: the integration succeeded');
  h.check(
    (event.data.lines as { quantity: number }[] | undefined)?.[0]?.quantity === 40,
    `the feed tells the ERP: 40 × ${c.flour} received`,
  );
}

async function reception(h: DemoHarness, code: string): Promise<Reception> {
  return expectStatus(
    await h.control.get<Reception>(`${h.tenantPath}/receptions/${code}`),
    200,
    `emulator reception ${code}`,
  );
}

async function deliveries(h: DemoHarness, closingDocumentCode: string): Promise<Delivery[]> {
  return expectStatus(
    await h.control.get<Delivery[]>(
      `${h.tenantPath}/webhook-log?closingDocumentCode=${encodeURIComponent(closingDocumentCode)}`,
    ),
    200,
    'emulator webhook log',
  );
}
