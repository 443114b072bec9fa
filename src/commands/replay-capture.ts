import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CapturedEvent, parseCaptured } from '../inbound/capture.js';
import { basicAuthorization } from '../lib/basic-auth.js';
import type { Config } from '../lib/config.js';
import { UsageError } from './args.js';
import { pickConnection } from './connection-arg.js';
import type { CommandContext } from './types.js';

/** How a capture is sent: at a fixed rate, or keeping the gaps the WMS left, `speed` times faster. */
export type Pace = { rate: number } | { recorded: true; speed: number };

async function* lines(file: string): AsyncGenerator<CapturedEvent> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    n += 1;
    if (line.trim() !== '') yield parseCaptured(line, n);
  }
}

/** Reads the whole file once before sending anything, so a bad line refuses the replay, not half of it. */
async function check(file: string): Promise<number> {
  let count = 0;
  try {
    for await (const _ of lines(file)) count += 1;
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
  return count;
}

/**
 * Sends a capture (`wms-sync events export`) to a receiver as the WMS did, one request at a time in
 * the file's order, each event to its own connection's URL with that connection's credentials (or
 * all to `as`). Prints progress once a second and a summary; returns the exit code.
 */
export async function replayCapture(
  ctx: CommandContext,
  config: Config,
  input: { file: string; to: string; as?: string; pace: Pace },
): Promise<number> {
  const total = await check(input.file);
  const base = input.to.replace(/\/+$/, '');
  const statuses = new Map<string, number>();
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  let firstAt: number | undefined;
  let lastReport = started;
  const report = (final: boolean) => {
    const seconds = (performance.now() - started) / 1000;
    const answers = [...statuses].map(([s, n]) => `${s}: ${n}`).join(', ');
    ctx.stdout.write(
      `${final ? 'done:' : 'sent'} ${sent}/${total} in ${seconds.toFixed(1)} s (${(sent / Math.max(seconds, 0.001)).toFixed(1)}/s; ${answers || 'no answer yet'})\n`,
    );
  };
  for await (const event of lines(input.file)) {
    const at = Date.parse(event.receivedAt);
    firstAt ??= at;
    const due = 'rate' in input.pace ? (sent / input.pace.rate) * 1000 : (at - firstAt) / input.pace.speed;
    const wait = due - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    const connection = pickConnection(config, input.as ?? event.connection);
    const { username, password } = connection.webhookCredentials[0]!;
    let status = '';
    try {
      const res = await fetch(`${base}/webhooks/${encodeURIComponent(connection.name)}/${event.kind}`, {
        method: 'POST',
        headers: { authorization: basicAuthorization(username, password), 'content-type': 'application/json' },
        body: event.body,
      });
      await res.arrayBuffer();
      status = String(res.status);
      if (!res.ok) {
        failed += 1;
        ctx.stderr.write(`line of event ${event.id ?? '?'} (${event.kind}): answered ${res.status}\n`);
      }
    } catch (err) {
      // A receiver that is not there would refuse every line after this one too.
      ctx.stderr.write(
        `stopped after ${sent} of ${total}: ${base} unreachable (${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message})\n`,
      );
      return 1;
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    sent += 1;
    if (performance.now() - lastReport >= 1000) {
      lastReport = performance.now();
      report(false);
    }
  }
  report(true);
  return failed === 0 ? 0 : 1;
}
