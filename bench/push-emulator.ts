/**
 * The emulator in a process of its own for `bench/push.ts` (a WMS is a remote service: it does not
 * share the pusher's CPU). Counts the requests it receives; `GET /_bench/counts` reads them and
 * `POST /_bench/counts/reset` clears them. Prints its URL on the first line of stdout.
 */
import { serve } from '@hono/node-server';
import { createEmulator } from '../src/emulator/index.js';
import { WMS_PATHS } from '../src/wms/index.js';

const emulator = createEmulator();
const counts = { token: 0, api: 0 };

const server = serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req: Request) => {
      const path = new URL(req.url).pathname;
      if (path === '/_bench/counts') return Response.json(counts);
      if (path === '/_bench/counts/reset') {
        counts.token = 0;
        counts.api = 0;
        return Response.json(counts);
      }
      if (path === WMS_PATHS.authToken || path === '/oauth/token') counts.token += 1;
      else if (path.startsWith('/api/')) counts.api += 1;
      return emulator.app.fetch(req);
    },
  },
  (info) => process.stdout.write(`http://127.0.0.1:${info.port}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
