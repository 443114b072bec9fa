import { expect } from 'vitest';
import type { ScenarioCodes } from '../../src/demo/steps.js';
import { DEMO_TENANT } from '../../src/emulator/index.js';

/**
 * What the refusal step (src/demo/step-erp-refusal.ts) must leave behind, read from each side on
 * its own: the emulator's webhook log (the refusal the WMS got, then the accepted re-send), the
 * sample ERP's record (two signed close-document messages, the first refused). Returns the
 * closingDocumentCode, for the caller to look the service's event up.
 */
export async function expectErpRefusal(emulatorUrl: string, erpUrl: string, c: ScenarioCodes): Promise<string> {
  const log = await fetch(`${emulatorUrl}/_emulator/tenants/${DEMO_TENANT}/webhook-log?kind=reception-close`);
  type Delivery = {
    status: string;
    cause: string;
    response: { status: number; body: unknown } | null;
    request: { body: Record<string, unknown> };
  };
  const ours = ((await log.json()) as Delivery[]).filter((d) => d.request.body.documentExternalCode === c.refusedOrder);
  expect(ours.map((d) => [d.cause, d.status, d.response?.status])).toEqual([
    ['event', 'failed', 200],
    ['resend', 'succeeded', 200],
  ]);
  expect(ours[0]!.response!.body).toEqual({
    success: false,
    message: expect.stringContaining(`${c.refusedOrder} is already closed`),
  });

  const erp = await fetch(`${erpUrl}/messages?type=close_document.received&code=${c.refusedOrder}`);
  const { messages, refused } = (await erp.json()) as {
    messages: { answer: { body: { success: boolean } } }[];
    refused: number;
  };
  expect(messages.map((m) => m.answer.body.success)).toEqual([false, true]);
  expect(refused).toBe(0);
  return ours[0]!.request.body.closingDocumentCode as string;
}
