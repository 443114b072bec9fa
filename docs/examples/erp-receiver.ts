import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

/** A close document wms-sync asks about (ERP_CLOSE_ACK=sync): answer within the budget. */
export interface CloseDocumentReceived {
  type: 'close_document.received';
  connection: string;
  kind: 'reception-close' | 'client-return-close' | 'shipping-order-close' | 'supplier-return-close';
  eventId: number;
  data: { closingDocumentCode: string; documentExternalCode: string | null; [field: string]: unknown };
}

export interface ErpReceiverOptions {
  /** ERP_WEBHOOK_SECRET, as `npx wms-sync connections secret` printed it (whsec_…). */
  secret: string;
  /** Return a reason to refuse the document (the warehouse operator sees it), or undefined to accept. */
  decide(message: CloseDocumentReceived): string | undefined | Promise<string | undefined>;
  /** A feed event (reception.closed, stock.adjusted, …); dedupe on `webhookId`. */
  onEvent(event: { type: string; data: unknown }, webhookId: string): void | Promise<void>;
}

export function createErpReceiver(options: ErpReceiverOptions): Server {
  const wh = new Webhook(options.secret);
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const answer = (status: number, body: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let message: { type: string; data: unknown };
      try {
        // Verify the raw bytes, before parsing: signature, and a timestamp within 5 minutes.
        message = wh.verify(Buffer.concat(chunks).toString('utf8'), headers) as typeof message;
      } catch {
        return answer(401, { success: false, message: 'bad signature' });
      }
      try {
        if (message.type === 'close_document.received') {
          const reason = await options.decide(message as CloseDocumentReceived);
          // The spec's refusal: a 2xx whose body is {success:false, message}.
          return answer(200, reason === undefined ? { success: true } : { success: false, message: reason });
        }
        await options.onEvent(message, headers['webhook-id']);
        return answer(200, { success: true });
      } catch {
        // Not a 2xx: wms-sync takes it as "no decision" and processes the document as usual.
        return answer(500, { success: false, message: 'internal error' });
      }
    });
  });
}

// `ERP_WEBHOOK_SECRET=whsec_… npx tsx docs/examples/erp-receiver.ts`: refuses purchase orders it
// knows as closed, logs everything else.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const closed = new Set(['PO-2026-0001']);
  const server = createErpReceiver({
    secret: process.env.ERP_WEBHOOK_SECRET ?? '',
    decide: (m) =>
      m.data.documentExternalCode && closed.has(m.data.documentExternalCode)
        ? `Purchase order ${m.data.documentExternalCode} is already closed`
        : undefined,
    onEvent: (event, id) => console.log(id, event.type, JSON.stringify(event.data)),
  });
  server.listen(Number(process.env.PORT ?? 8091), () =>
    console.log(`ERP receiver on port ${process.env.PORT ?? 8091}`),
  );
}
