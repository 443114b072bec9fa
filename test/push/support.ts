import type { ServiceApp } from '../../src/app.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One request to the service's ERP API through `app.request()`. */
export async function erp<T = any>(
  app: ServiceApp,
  connection: Pick<ConnectionConfig, 'erpApiToken'> | null,
  method: string,
  path: string,
  options: { json?: unknown; body?: string; contentType?: string | null } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (connection) headers.authorization = `Bearer ${connection.erpApiToken}`;
  let body = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  const contentType =
    options.contentType === undefined ? (body !== undefined ? 'application/json' : undefined) : options.contentType;
  if (contentType) headers['content-type'] = contentType;
  const res = await app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

let seq = 0;
/** A code no other test in the file uses. */
export const code = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

export const product = (externalCode: string, over: Record<string, unknown> = {}) => ({
  externalCode,
  description: `Product ${externalCode}`,
  handlingUnit: 'UN',
  barcodes: [{ code: `BC-${externalCode}`, type: 'GTIN' }],
  ...over,
});

export const deliveryPoint = (externalCode: string, over: Record<string, unknown> = {}) => ({
  externalCode,
  active: true,
  name: `Point ${externalCode}`,
  types: ['CLIENT'],
  ...over,
});

export const document = (externalCode: string, productCodes: string[], over: Record<string, unknown> = {}) => ({
  externalCode,
  documentNumber: `N-${externalCode}`,
  documentType: 'CLIENT_EXPEDITION',
  lines: productCodes.map((p, i) => ({ lineNumber: i + 1, quantity: i + 1, productExternalCode: p })),
  ...over,
});
