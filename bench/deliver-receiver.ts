// The ERP endpoint of bench/deliver.ts, in a process of its own (an ERP runs elsewhere): POST
// /signed verifies every Standard Webhooks signature (env SECRET) and counts receipts per
// webhook-id; POST /plain takes unsigned POSTs (the baseline). While "down" /signed answers 503
// and counts those hits. GET /stats and /receipts report; POST /control sets down or resets.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.SECRET!);
const now = () => performance.timeOrigin + performance.now();
let state = fresh();

function fresh() {
  return {
    down: false,
    perId: new Map<string, number>(),
    /** First receipt time (epoch ms, fractional) per document code. */
    receipts: new Map<string, number>(),
    /** When the feed event was written (its createdAt), per document code. */
    feedAt: new Map<string, number>(),
    badSignatures: 0,
    downHits: 0,
    downHitTimes: [] as number[],
    plain: 0,
    firstReceipt: 0,
    lastReceipt: 0,
  };
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'POST' && req.url === '/plain') {
      state.plain++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (req.method === 'POST' && req.url === '/signed') {
      if (state.down) {
        state.downHits++;
        state.downHitTimes.push(now());
        res.writeHead(503).end('down');
        return;
      }
      let event: { createdAt?: string; data?: { closingDocumentCode?: string } };
      try {
        event = wh.verify(body, req.headers as Record<string, string>) as typeof event;
      } catch {
        state.badSignatures++;
        res.writeHead(401).end('bad signature');
        return;
      }
      const id = String(req.headers['webhook-id']);
      state.perId.set(id, (state.perId.get(id) ?? 0) + 1);
      const code = event.data?.closingDocumentCode;
      const at = now();
      if (code && !state.receipts.has(code)) {
        state.receipts.set(code, at);
        if (event.createdAt) state.feedAt.set(code, Date.parse(event.createdAt));
      }
      if (state.firstReceipt === 0) state.firstReceipt = at;
      state.lastReceipt = at;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (req.method === 'GET' && req.url === '/stats') {
      let duplicates = 0;
      for (const n of state.perId.values()) duplicates += n - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          unique: state.perId.size,
          duplicates,
          badSignatures: state.badSignatures,
          downHits: state.downHits,
          downHitTimes: state.downHitTimes,
          plain: state.plain,
          firstReceipt: state.firstReceipt,
          lastReceipt: state.lastReceipt,
        }),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/receipts') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ receipts: Object.fromEntries(state.receipts), feedAt: Object.fromEntries(state.feedAt) }),
        );
      return;
    }
    if (req.method === 'POST' && req.url === '/control') {
      const c = JSON.parse(body || '{}') as { down?: boolean; reset?: boolean };
      if (c.reset) state = fresh();
      if (c.down !== undefined) state.down = c.down;
      res.writeHead(200).end('{}');
      return;
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
