import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorMessage } from '../lib/errors.js';
import type { CommandContext } from './types.js';

export const TRIGGER_HELP = `Usage: wms-sync emulator trigger <reception|shipment|regularization> [options]

Drives a running emulator's warehouse through its control API, like a warehouse operator:
  reception       open a reception for inbound documents, register lines, submit, close
  shipment        open a shipping order for an outbound document, pick, pack, dispatch
  regularization  add (positive) or remove (negative) stock of a product and lot

Common options:
  --url URL            the emulator (default http://127.0.0.1:EMULATOR_PORT)
  --tenant ID          the tenant (default demo)
  --admin-token TOKEN  the control API's admin token (default EMULATOR_ADMIN_TOKEN)
  --wait               wait for the webhooks the action queued and print their outcome

reception:
  --document CODE      an inbound document's external code (repeatable)
  --line P:Q[:LOT[:EXPIRY]]  a received line: product, quantity, lot, expiry YYYY-MM-DD (repeatable)
  --warehouse CODE     receive into this warehouse (default MAIN)
  --submit             submit after the lines (EXECUTING → SUBMITTED)
  --close              close: stock added, documents EXECUTED, close webhooks sent
  --observations TEXT  operator notes sent with the close webhook
shipment:
  --document CODE      the outbound document's external code
  --line P:Q[:LOT]     pick this (repeatable; default: everything ordered)
  --pack               pack everything picked into one packing
  --weight KG          that packing's gross weight
  --dispatch           dispatch: stock removed, document EXECUTED, close webhook sent
  --warehouse CODE     ship from this warehouse (default MAIN)
regularization:
  --product CODE --quantity N [--lot LOT] [--warehouse CODE] [--location LOC]

Examples:
  wms-sync emulator trigger reception --url http://127.0.0.1:8090 --tenant demo \\
    --document PO-1 --line DEMO-001:10 --line DEMO-002:5:L2401 --close --wait
  wms-sync emulator trigger shipment --document CE-1 --pack --weight 12.5 --dispatch --wait
  wms-sync emulator trigger regularization --product DEMO-001 --quantity -2
`;

class UsageError extends Error {}
class ControlApiError extends Error {}

interface WebhookLogEntry {
  id: number;
  kind: string;
  closingDocumentCode: string | null;
  status: string;
  response: { status: number } | null;
  error: string | null;
}

function lineOf(text: string, withExpiry: boolean): Record<string, unknown> {
  const [product, quantity, lot, expiry, ...rest] = text.split(':');
  const q = Number(quantity);
  if (
    !product ||
    quantity === undefined ||
    quantity.trim() === '' ||
    !Number.isFinite(q) ||
    rest.length > 0 ||
    (!withExpiry && expiry !== undefined)
  ) {
    throw new UsageError(
      `--line expects ${withExpiry ? 'PRODUCT:QUANTITY[:LOT[:EXPIRY]]' : 'PRODUCT:QUANTITY[:LOT]'}, got "${text}"`,
    );
  }
  return {
    productExternalCode: product,
    quantity: q,
    ...(lot ? { lotCode: lot } : {}),
    ...(expiry ? { expirationDate: expiry } : {}),
  };
}

function client(url: string, tenant: string, adminToken: string | undefined) {
  const base = `${url.replace(/\/+$/, '')}/_emulator/tenants/${encodeURIComponent(tenant)}`;
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (adminToken) headers.authorization = `Bearer ${adminToken}`;
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new ControlApiError(
        `cannot reach the emulator at ${url}: ${errorMessage((err as { cause?: unknown }).cause ?? err)}`,
      );
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok)
      throw new ControlApiError(
        `${method} ${path}: ${res.status} ${String(parsed.error ?? '')}: ${String(parsed.message ?? text)}`,
      );
    return parsed as T;
  };
}

type Call = ReturnType<typeof client>;

async function reception(call: Call, v: Record<string, unknown>, out: (line: string) => void): Promise<number[]> {
  const documents = (v.document as string[] | undefined) ?? [];
  if (documents.length === 0) throw new UsageError('reception needs at least one --document');
  const lines = ((v.line as string[] | undefined) ?? []).map((l) => lineOf(l, true));
  const opened = await call<{ receptionCode: string }>('POST', '/receptions', {
    documents,
    ...(v.warehouse ? { warehouse: v.warehouse } : {}),
  });
  const code = opened.receptionCode;
  out(`reception ${code} opened for ${documents.join(', ')}`);
  for (const line of lines) {
    await call('POST', `/receptions/${code}/lines`, line);
    out(
      `  received ${String(line.productExternalCode)} × ${String(line.quantity)}${line.lotCode ? ` lot ${String(line.lotCode)}` : ''}`,
    );
  }
  if (v.submit) out(`  status ${(await call<{ status: string }>('POST', `/receptions/${code}/submit`)).status}`);
  if (!v.close) return [];
  const closed = await call<{
    status: string;
    webhookIds: number[];
    closingDocuments: { closingDocumentCode: string; documentExternalCode: string; integration: { status: string } }[];
  }>('POST', `/receptions/${code}/close`, v.observations ? { observations: v.observations } : undefined);
  out(`reception ${code} ${closed.status}`);
  for (const c of closed.closingDocuments)
    out(`  closing document ${c.closingDocumentCode} for ${c.documentExternalCode}: webhook ${c.integration.status}`);
  return closed.webhookIds;
}

async function shipment(call: Call, v: Record<string, unknown>, out: (line: string) => void): Promise<number[]> {
  const documents = (v.document as string[] | undefined) ?? [];
  if (documents.length !== 1) throw new UsageError('shipment needs exactly one --document');
  const lines = ((v.line as string[] | undefined) ?? []).map((l) => lineOf(l, false));
  const opened = await call<{ shippingOrderCode: string }>('POST', '/shipping-orders', {
    document: documents[0],
    ...(v.warehouse ? { warehouse: v.warehouse } : {}),
  });
  const code = opened.shippingOrderCode;
  out(`shipping order ${code} opened for ${documents[0]!}`);
  const picked = await call<{ picks: { productExternalCode: string; quantity: number; lotCode: string | null }[] }>(
    'POST',
    `/shipping-orders/${code}/pick`,
    lines.length > 0 ? { lines } : undefined,
  );
  for (const p of picked.picks)
    out(`  picked ${p.productExternalCode} × ${p.quantity}${p.lotCode ? ` lot ${p.lotCode}` : ''}`);
  if (v.pack) {
    const weight = v.weight === undefined ? undefined : Number(v.weight);
    if (weight !== undefined && !(weight >= 0))
      throw new UsageError(`--weight expects kilograms, got "${String(v.weight)}"`);
    const everything = (
      await call<{ picks: { productExternalCode: string; quantity: number; lotCode: string | null }[] }>(
        'GET',
        `/shipping-orders/${code}`,
      )
    ).picks;
    const packed = await call<{ packings: { barcode: string; sscc: string }[] }>(
      'POST',
      `/shipping-orders/${code}/pack`,
      {
        packings: [
          {
            ...(weight !== undefined ? { grossWeight: weight } : {}),
            lines: everything.map((p) => ({
              productExternalCode: p.productExternalCode,
              quantity: p.quantity,
              lotCode: p.lotCode,
            })),
          },
        ],
      },
    );
    out(`  packed into ${packed.packings[0]!.barcode} (SSCC ${packed.packings[0]!.sscc})`);
  }
  if (!v.dispatch) return [];
  const dispatched = await call<{
    status: string;
    webhookIds: number[];
    closingDocuments: { closingDocumentCode: string; integration: { status: string } }[];
  }>('POST', `/shipping-orders/${code}/dispatch`);
  out(`shipping order ${code} ${dispatched.status}`);
  for (const c of dispatched.closingDocuments)
    out(`  closing document ${c.closingDocumentCode}: webhook ${c.integration.status}`);
  return dispatched.webhookIds;
}

async function regularization(call: Call, v: Record<string, unknown>, out: (line: string) => void): Promise<number[]> {
  const quantity = Number(v.quantity);
  if (!v.product || v.quantity === undefined || !Number.isFinite(quantity) || quantity === 0) {
    throw new UsageError('regularization needs --product and a non-zero --quantity');
  }
  const done = await call<{ webhookIds: number[]; warehouse: string }>('POST', '/stock/regularizations', {
    productExternalCode: v.product,
    quantity,
    ...(v.lot ? { lotCode: v.lot } : {}),
    ...(v.warehouse ? { warehouse: v.warehouse } : {}),
    ...(v.location ? { location: v.location } : {}),
  });
  out(
    `stock of ${String(v.product)}${v.lot ? ` lot ${String(v.lot)}` : ''} ${quantity > 0 ? '+' : ''}${quantity} in ${done.warehouse}`,
  );
  return done.webhookIds;
}

const ACTIONS = { reception, shipment, regularization };

/** `--quantity -2` reads as intended (parseArgs would take `-2` for an option). */
function negativeQuantities(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--quantity' && /^-\d/.test(args[i + 1] ?? '')) out.push(`--quantity=${args[++i]!}`);
    else out.push(args[i]!);
  }
  return out;
}

/** `wms-sync emulator trigger …`: exit 0 done, 1 the emulator refused or is unreachable, 2 usage. */
export async function runTrigger(args: string[], ctx: CommandContext): Promise<number> {
  const out = (line: string) => ctx.stdout.write(`${line}\n`);
  try {
    const { values, positionals } = (() => {
      try {
        return parseArgs({
          args: negativeQuantities(args),
          allowPositionals: true,
          strict: true,
          options: {
            url: { type: 'string' },
            tenant: { type: 'string' },
            'admin-token': { type: 'string' },
            wait: { type: 'boolean' },
            document: { type: 'string', multiple: true },
            line: { type: 'string', multiple: true },
            warehouse: { type: 'string' },
            submit: { type: 'boolean' },
            close: { type: 'boolean' },
            observations: { type: 'string' },
            pack: { type: 'boolean' },
            weight: { type: 'string' },
            dispatch: { type: 'boolean' },
            product: { type: 'string' },
            quantity: { type: 'string' },
            lot: { type: 'string' },
            location: { type: 'string' },
          },
        });
      } catch (err) {
        throw new UsageError(errorMessage(err));
      }
    })();
    const [name, ...extra] = positionals;
    const action = ACTIONS[name as keyof typeof ACTIONS];
    if (!action || extra.length > 0)
      throw new UsageError(
        name
          ? `unknown trigger "${[name, ...extra].join(' ')}"`
          : 'which trigger? reception, shipment or regularization',
      );
    let config;
    try {
      config = loadConfig(ctx.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      ctx.stderr.write(`wms-sync emulator trigger: ${err.message}\n`);
      return 1;
    }
    const url = values.url ?? `http://127.0.0.1:${config.emulator.port}`;
    const tenant = values.tenant ?? 'demo';
    const call = client(url, tenant, values['admin-token'] ?? config.emulator.adminToken);
    const webhookIds = await action(call, values, out);
    if (values.wait && webhookIds.length > 0) {
      await call('POST', '/webhook-log/settle', { timeoutMs: 60_000 });
      for (const id of webhookIds) {
        const d = await call<WebhookLogEntry>('GET', `/webhook-log/${id}`);
        out(
          `  webhook ${d.kind}${d.closingDocumentCode ? ` ${d.closingDocumentCode}` : ''}: ${d.status}${d.response ? ` (HTTP ${d.response.status})` : ''}${d.error ? `: ${d.error}` : ''}`,
        );
      }
    } else if (webhookIds.length > 0)
      out(`  webhooks queued: ${webhookIds.join(', ')} (see GET /_emulator/tenants/${tenant}/webhook-log)`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`wms-sync emulator trigger: ${err.message}\n\n${TRIGGER_HELP}`);
      return 2;
    }
    if (err instanceof ControlApiError) {
      ctx.stderr.write(`wms-sync emulator trigger: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
