import { openStore } from '/work/wt/ingest/src/store/index.js';
import { loadConfig } from '/work/wt/ingest/src/lib/config.js';
import { processEvents } from '/work/wt/ingest/src/inbound/process-event.js';
import { writeEvents } from '/work/wt/ingest/src/inbound/ack-writer.js';
import { inboundMetrics } from '/work/wt/ingest/src/inbound/metrics.js';
import { openQueue } from '/work/wt/ingest/src/queue/index.js';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
const pgMode = process.argv[2] === 'pg';
const env = pgMode ? { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', DATABASE_SCHEMA: `micro${Date.now()}` } : { SQLITE_FILE: `/tmp/ingest-prof/micro-${Date.now()}.db` };
const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
const store = openStore(config.database);
await store.migrate();
const queue = openQueue(store as never);
await queue.start();
const fixture = JSON.parse(readFileSync('/work/wt/ingest/fixtures/webhooks/reception-close.json', 'utf8'));
const metrics = inboundMetrics(new Registry() as never);
const deps = { store, clock: { now: () => new Date() } as never, metrics };
const B = Number(process.argv[3] ?? 32), ROUNDS = Number(process.argv[4] ?? 50);
let n = 0;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system); };
let ackCpu = 0, procCpu = 0, claimCpu = 0, completeCpu = 0;
for (let r = 0; r < ROUNDS; r++) {
  const items = Array.from({ length: B }, () => { const code = `M-${++n}`; return { connection: 'a', kind: 'reception-close', dedupeKey: `reception-close:${code}`, payload: JSON.stringify({ ...fixture, closingDocumentCode: code }), at: new Date() }; });
  let c0 = cpu();
  const res = await writeEvents({ store, queue, config } as never, items);
  ackCpu += cpu() - c0;
  const ids = res.map((x) => x.event.id);
  c0 = cpu();
  const out = await processEvents(deps, ids);
  procCpu += cpu() - c0;
  if (out.some((o) => !o.ok)) console.log(out.find((o) => !o.ok));
  // separate phases on fresh events
  const items2 = items.map((i) => ({ ...i, dedupeKey: i.dedupeKey + 'b' }));
  const ids2 = (await writeEvents({ store, queue, config } as never, items2)).map((x) => x.event.id);
  c0 = cpu(); await store.processing.claim(ids2, new Date()); claimCpu += cpu() - c0;
}
const per = (x: number) => (x / (B * ROUNDS)).toFixed(1);
console.log(`${pgMode ? 'pg' : 'sqlite'} batch ${B}: ack ${per(ackCpu)} µs/event, process ${per(procCpu)} µs/event, claim alone ${per(claimCpu)} µs/event`);
await queue.stop({ graceMs: 0 });
await store.close();
// phase breakdown
{
  const { readStored, effectsOf } = await import('/work/wt/ingest/src/inbound/effects.js');
  const store2 = openStore(config.database); 
  const items = Array.from({ length: B }, () => { const code = `Z-${++n}`; return { connection: 'a', kind: 'reception-close', dedupeKey: `reception-close:${code}`, payload: JSON.stringify({ ...fixture, closingDocumentCode: code }), at: new Date() }; });
  const q2 = openQueue(store2 as never);
  let tr = 0, te = 0, tc = 0, tcl = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const its = items.map((i) => ({ ...i, dedupeKey: i.dedupeKey + r }));
    const ids = (await writeEvents({ store: store2, queue: q2, config } as never, its)).map((x) => x.event.id);
    let c0 = cpu(); const evs = await store2.processing.claim(ids, new Date()); tcl += cpu() - c0;
    c0 = cpu(); const reads = evs.map((e) => readStored(e)); tr += cpu() - c0;
    c0 = cpu(); const at = new Date(); const pe = evs.map((e, i) => { const eff = effectsOf(e, (reads[i] as any).stored, undefined); return { eventId: e.id, connection: e.connection, movements: eff.movements.map((m) => ({ ...m, at })), confirmation: { connection: e.connection, type: eff.type, dedupeKey: eff.dedupeKey, sourceEventId: e.id, data: eff.data, at } }; }); te += cpu() - c0;
    c0 = cpu(); await store2.transaction((tx) => tx.processing.complete(pe, at)); tc += cpu() - c0;
  }
  const per = (x: number) => (x / (B * ROUNDS)).toFixed(1);
  console.log(`phases: claim ${per(tcl)}, read ${per(tr)}, effects ${per(te)}, complete ${per(tc)} µs/event`);
  await store2.close();
}
