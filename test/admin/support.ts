import type { TestService } from '../support/service.js';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

/** A JSON request to the admin API with the admin token (or the headers given). */
export async function admin(
  svc: TestService,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}`, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await svc.app.request(path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any, headers: res.headers };
}

/** PUTs a product through the ERP API (no worker runs in these tests, so it stays pending). */
export async function putProduct(svc: TestService, erpToken: string, code: string): Promise<void> {
  const res = await svc.app.request(`/erp/v1/products/${encodeURIComponent(code)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${erpToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ externalCode: code, description: `Product ${code}` }),
  });
  if (res.status >= 300) throw new Error(`PUT product ${code}: ${res.status} ${await res.text()}`);
}
