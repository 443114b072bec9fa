// Helpers of bench/deliver.ts: a paced webhook sender, the ERP feed poller.
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export const epochMs = () => performance.timeOrigin + performance.now();

export const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function request(
  url: string,
  method: string,
  body: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends `total` requests at `perSecond`, each on its own schedule (an open loop: a slow answer
 * does not slow the next send), and records when each one's 2xx answer arrived.
 */
export async function paced(
  total: number,
  perSecond: number,
  send: (i: number) => Promise<boolean>,
  onTick?: (elapsedMs: number) => void,
): Promise<{ acked: Map<number, number>; failed: number }> {
  const acked = new Map<number, number>();
  let failed = 0;
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    onTick?.(performance.now() - start);
    inflight.push(
      send(i).then(
        (ok) => {
          if (ok) acked.set(i, epochMs());
          else failed++;
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(inflight);
  return { acked, failed };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** An ERP polling GET /erp/v1/feed every `everyMs`: when each document code was first seen. */
export function feedPoller(baseUrl: string, token: string, everyMs: number) {
  const seen = new Map<string, number>();
  let after = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const res = await request(`${baseUrl}/erp/v1/feed?after=${after}&limit=1000`, 'GET', undefined, {
        authorization: `Bearer ${token}`,
      });
      const page = JSON.parse(res.text) as { entries: { data: { closingDocumentCode?: string } }[]; next: number };
      const at = epochMs();
      for (const e of page.entries)
        if (e.data.closingDocumentCode && !seen.has(e.data.closingDocumentCode))
          seen.set(e.data.closingDocumentCode, at);
      after = page.next;
      if (page.entries.length < 1000) await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return { seen, stop: async () => ((stopped = true), await done) };
}
