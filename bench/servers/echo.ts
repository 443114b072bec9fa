// Baseline of bench/ingest.ts: bare Hono on the same node server, parsing the JSON body and
// answering what the receiver answers, with nothing else (no auth, validation, storage, logging).
import { Hono } from 'hono';
import { listen } from '../../src/lib/listen.js';

const app = new Hono();
app.post('*', async (c) => {
  await c.req.json();
  return c.json({ success: true });
});
const http = await listen(app.fetch, { port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${http.url}\n`);
process.once('SIGTERM', () => void http.close(1000).then(() => process.exit(0)));
