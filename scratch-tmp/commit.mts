import { openStore } from '/work/wt/ingest/src/store/index.js';
import { loadConfig } from '/work/wt/ingest/src/lib/config.js';
import { readFileSync } from 'node:fs';
const config = loadConfig({ SQLITE_FILE: `/tmp/ingest-prof/cm-${Date.now()}.db`, LOG_LEVEL: 'warn' });
const store = openStore(config.database) as any;
await store.migrate();
const raw = store.database.raw;
const fixture = readFileSync('/work/wt/ingest/fixtures/webhooks/reception-close.json', 'utf8');
const N = 6400, B = 32;
const ins = raw.prepare(`INSERT INTO inbound_events (connection, kind, dedupe_key, status, payload, received_at, updated_at) VALUES ('a','reception-close',?,'received',?,?,?)`);
raw.exec('BEGIN'); for (let i = 0; i < N; i++) ins.run(`k${i}`, fixture, Date.now(), Date.now()); raw.exec('COMMIT');
const mark = raw.prepare(`UPDATE inbound_events SET status = 'processed', error = NULL, quarantine_reason = NULL, processed_at = @at, updated_at = @at WHERE id = @id`);
const att = raw.prepare(`INSERT INTO inbound_attempts (event_id, connection, outcome, error, created_at) VALUES (?, ?, ?, ?, ?)`);
const mv = raw.prepare(`INSERT INTO stock_ledger (connection, product_external_code, lot_code, warehouse, quantity, movement_time, source, dedupe_key, source_event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (connection, dedupe_key) DO NOTHING`);
const data = JSON.stringify({ ...JSON.parse(fixture), eventId: 1 });
const conf = raw.prepare(`INSERT INTO confirmations (connection, type, dedupe_key, source_event_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (connection, dedupe_key) DO NOTHING RETURNING id`);
let body = 0, commit = 0, begin = 0;
for (let b = 0; b < N / B; b++) {
  let c0 = process.cpuUsage(); raw.exec('BEGIN IMMEDIATE'); let u = process.cpuUsage(c0); begin += u.user + u.system;
  c0 = process.cpuUsage();
  for (let k = 1; k <= B; k++) { const i = b * B + k; for (let j = 0; j < 4; j++) mv.run('a', 'YOG-NAT-125', 'L2026', null, 480, Date.now(), 'reception-close', `reception-close:k${i}#${j}`, i, Date.now()); mark.run({ at: Date.now(), id: i }); att.run(i, 'a', 'processed', null, Date.now()); conf.get('a', 'reception.closed', `inbound:k${i}`, i, data, Date.now()); }
  u = process.cpuUsage(c0); body += u.user + u.system;
  c0 = process.cpuUsage(); raw.exec('COMMIT'); u = process.cpuUsage(c0); commit += u.user + u.system;
}
console.log(`per event: begin ${(begin / N).toFixed(1)}, body ${(body / N).toFixed(1)}, commit ${(commit / N).toFixed(1)} µs`);
await store.close();
