/**
 * Log lines per second through `createLogger` (secrets censored by key name at any depth), against
 * pino with no redaction (the baseline) and pino with a redaction path list (`*.*.x` wildcards:
 * blind below two levels), the usual way to redact with pino. Each logger writes to /dev/null synchronously, so the table is
 * the cost of building and serializing a line, for four shapes of line the service writes.
 * Usage: npm run bench:logger [-- --lines 50000 --rounds 5]
 */
import { parseArgs } from 'node:util';
import pino, { type Logger } from 'pino';
import { createLogger } from '../src/lib/logger.js';
import { quick } from './lib/quick.js';
import { printTable, type Row, writeResults } from './lib/report.js';

const QUICK = quick({ lines: '10000', rounds: '3' });

const { values } = parseArgs({
  options: { lines: { type: 'string', default: '50000' }, rounds: { type: 'string', default: '5' } },
});
const LINES = Number(values.lines);
const ROUNDS = Number(values.rounds);

/** A pino redaction path list covering the same secrets as far as paths can, for comparison. */
const PATH_LIST = [
  'authorization',
  'password',
  'secret',
  'token',
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'erpApiToken',
  'webhookPassword',
  'webhookCredentials',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'request.headers.authorization',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.accessToken',
  '*.erpApiToken',
  '*.webhookPassword',
  '*.webhookCredentials',
  '*.*.webhookCredentials',
  '*.*.password',
  '*.*.clientSecret',
  '*.*.client_secret',
  '*.*.authorization',
  '*.*.erpApiToken',
  '*.*.token',
];

const devNull = () => pino.destination({ dest: '/dev/null', sync: true });
const common = { level: 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };

const loggers: [string, () => Logger][] = [
  ['pino, no redaction (baseline)', () => pino(common, devNull())],
  [
    'pino, redaction path list',
    () => pino({ ...common, redact: { paths: PATH_LIST, censor: '[redacted]' } }, devNull()),
  ],
  ['createLogger, any depth (ours)', () => createLogger({ level: 'info', destination: devNull() })],
];

class WmsLikeError extends Error {
  constructor(readonly body: unknown) {
    super('createProduct (POST /api/external/v1/product): HTTP 400');
  }
}

const shapes: [string, (log: Logger, i: number) => void][] = [
  [
    'request line (child per request)',
    (log, i) =>
      log
        .child({ reqId: `req-${i}` })
        .info({ method: 'PUT', path: '/erp/v1/products/P-1', status: 202, ms: 1.25 }, 'request'),
  ],
  [
    'flat job line',
    (log, i) =>
      log.info(
        { runId: i, connection: 'acme', status: 'completed', reason: null, rows: 120, drift: 2, requests: 7 },
        'reconciliation finished',
      ),
  ],
  [
    'nested config and headers, with secrets',
    (log, i) =>
      log.info(
        {
          connection: {
            name: 'acme',
            wms: { baseUrl: 'http://wms', clientId: 'c', clientSecret: `s-${i}` },
            webhookCredentials: [{ username: 'u', password: 'p' }],
          },
          request: { headers: { authorization: 'Bearer x', 'content-type': 'application/json' } },
        },
        'connection',
      ),
  ],
  [
    'error with a WMS body',
    (log) =>
      log.warn(
        { err: new WmsLikeError({ title: 'Product SKU already exists', status: 400, params: { sku: 'A' } }) },
        'push failed',
      ),
  ],
];

function linesPerSecond(log: Logger, write: (log: Logger, i: number) => void): number {
  const start = performance.now();
  for (let i = 0; i < LINES; i++) write(log, i);
  return (LINES / (performance.now() - start)) * 1000;
}

// Rounds in a rotating order, medians reported: one run alone is at the mercy of the JIT and of
// whatever else the machine does meanwhile.
const rates = new Map<string, number[]>();
const combos = shapes.flatMap(([shape, write]) =>
  loggers.map(([name, make]) => ({ key: `${shape}|${name}`, log: make(), write })),
);
for (const c of combos) linesPerSecond(c.log, c.write); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < combos.length; k++) {
    const c = combos[(k + round) % combos.length]!;
    rates.set(c.key, [...(rates.get(c.key) ?? []), linesPerSecond(c.log, c.write)]);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: Row[] = [];
for (const [shape] of shapes) {
  const baseline = median(rates.get(`${shape}|${loggers[0]![0]}`)!);
  for (const [name] of loggers) {
    const rate = median(rates.get(`${shape}|${name}`)!);
    rows.push({ line: shape, logger: name, 'lines/s': Math.round(rate), ratio: rate / baseline });
  }
}
const title = `Log lines per second (medians of ${ROUNDS} rounds of ${LINES} lines; /dev/null, sync)`;
printTable(title, rows);
// Ours: createLogger as shipped; its baseline: pino without redaction, measured alongside.
const chart = shapes.map(([shape]) => {
  const of = (name: string) => rows.find((r) => r.line === shape && r.logger === name)!['lines/s'] as number;
  return { label: shape, ours: of(loggers.at(-1)![0]), baseline: of(loggers[0]![0]), unit: 'lines/s' };
});
process.stdout.write(
  `\nwrote ${writeResults('logger', { lines: LINES, rounds: ROUNDS, rows, quick: QUICK, tables: [{ title, rows }], chart })}\n`,
);
