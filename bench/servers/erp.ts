// The ERP of bench/close-ack.ts, in a process of its own so that its work (verifying each
// message's signature, answering) and the bench's client never delay each other's timers and
// sockets. Verifies each message with ERP_SECRET, then answers after ERP_MS: /accept accepts,
// /refuse refuses, /hang never answers. GET /stats: the messages verified and not.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.ERP_SECRET ?? '');
const erpMs = Number(process.env.ERP_MS ?? 100);
const stats = { verified: 0, unverified: 0 };
const hanging = new Set<ServerResponse>();

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats')
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      wh.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
      stats.verified += 1;
    } catch {
      stats.unverified += 1;
    }
    if (req.url === '/hang') return void hanging.add(res);
    const body =
      req.url === '/refuse'
        ? { success: false, message: 'Purchase order already closed in the ERP' }
        : { success: true };
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)), erpMs);
  });
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`),
);
process.once('SIGTERM', () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
