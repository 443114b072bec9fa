/**
 * The emulated WMS of `bench:push`, seen from the bench process: its own process
 * (bench/push-emulator.ts), tenants with API clients, capacity models, counters, and the bare
 * client loops that are the same-run baselines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface Wms {
  url: string;
  child: ChildProcess;
  tenant(id: string, capacity?: Capacity): Promise<{ clientId: string; clientSecret: string }>;
  capacity(id: string): Promise<{ stats: { admitted: number; limited: number } } | undefined>;
  counts(): Promise<{ token: number; api: number }>;
  resetCounts(): Promise<void>;
  stop(): void;
}

export interface Capacity {
  ratePerSecond?: number;
  burst?: number;
  concurrency?: number;
  latencyMs?: number;
}

export async function startWms(): Promise<Wms> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'push-emulator.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const control = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${url}/_emulator${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    if (res.status === 404 && method === 'GET') return undefined;
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  return {
    url,
    child,
    async tenant(id, capacity) {
      await control('POST', '/tenants', { id });
      const c = (await control('POST', `/tenants/${id}/api-clients`, { name: 'bench' }))!;
      if (capacity) await control('PUT', `/tenants/${id}/capacity`, capacity);
      return { clientId: c.client_id as string, clientSecret: c.client_secret as string };
    },
    capacity: async (id) =>
      (await control('GET', `/tenants/${id}/capacity`)) as { stats: { admitted: number; limited: number } } | undefined,
    counts: async () => (await (await fetch(`${url}/_bench/counts`)).json()) as { token: number; api: number },
    resetCounts: async () => void (await fetch(`${url}/_bench/counts/reset`)),
    stop: () => void child.kill('SIGTERM'),
  };
}

export const product = (t: string, i: number) => ({
  externalCode: `${t}-P${String(i).padStart(6, '0')}`,
  description: `Benchmark product ${i}`,
  code: `${t}-SKU-${i}`,
  handlingUnit: 'UN',
  weight: 1 + (i % 7) / 10,
  withLots: i % 4 === 0,
  barcodes: [{ code: `56${String(i).padStart(11, '0')}`, type: 'GTIN' }],
  ...(i % 4 === 0 ? { lots: [{ code: `L${i}`, active: true, expirationDate: '2028-06-30' }] } : {}),
});
export const point = (t: string, i: number) => ({
  externalCode: `${t}-DP${i}`,
  active: true,
  name: `Client ${i}`,
  city: 'Lisboa',
  country: 'PT',
  types: ['CLIENT'],
});
export const document = (t: string, i: number, products: number, points: number) => ({
  externalCode: `${t}-SO${i}`,
  documentNumber: `SO ${i}`,
  documentType: i % 5 === 0 ? 'PURCHASE_ORDER' : 'CLIENT_EXPEDITION',
  documentDate: '2026-03-02',
  deliveryPointExternalCode: `${t}-DP${i % points}`,
  lines: [0, 1, 2].map((k) => ({
    lineNumber: k + 1,
    quantity: 1 + k,
    productExternalCode: `${t}-P${String((i * 3 + k) % products).padStart(6, '0')}`,
  })),
});

/**
 * The bare client loop: one token, then `inFlight` loops of fetch creating products, no store, no
 * queue, no retries (a 429 is counted and the item sent again). What the WMS allows a client that
 * does nothing else.
 */
export async function bareLoop(
  wms: Wms,
  tenantId: string,
  items: number,
  inFlight: number,
  capacity?: Capacity,
): Promise<{ seconds: number; items: number; limited: number }> {
  const creds = await wms.tenant(tenantId, capacity);
  const tokenRes = await fetch(`${wms.url}/api/external/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: creds.clientId, client_secret: creds.clientSecret }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let next = 0;
  let limited = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (;;) {
        const i = next++;
        if (i >= items) return;
        for (;;) {
          const res = await fetch(`${wms.url}/api/external/v1/product`, {
            method: 'POST',
            headers,
            body: JSON.stringify(product(tenantId, i)),
          });
          await res.arrayBuffer();
          if (res.status === 429) {
            limited += 1;
            continue;
          }
          if (res.status >= 300) throw new Error(`bare loop: ${res.status}`);
          break;
        }
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, items, limited };
}
