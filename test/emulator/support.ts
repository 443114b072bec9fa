import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { ManualClock } from '../../src/lib/clock.js';

/** An in-process emulator on a manual clock (2025-03-01T12:00:00Z unless told otherwise). */
export function setup(options: EmulatorOptions = {}): { emulator: Emulator; clock: ManualClock; app: Emulator['app'] } {
  const clock =
    options.clock instanceof ManualClock ? options.clock : new ManualClock(new Date('2025-03-01T12:00:00Z'));
  const emulator = createEmulator({ ...options, clock });
  return { emulator, clock, app: emulator.app };
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

async function reply<T>(res: Response): Promise<Reply<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

type App = Emulator['app'];

export async function call<T = unknown>(
  app: App,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  return reply<T>(await app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }));
}

export async function control<T = unknown>(app: App, method: string, path: string, json?: unknown): Promise<Reply<T>> {
  return call<T>(app, method, `/_emulator${path}`, json === undefined ? {} : { json });
}

export async function issueToken(
  app: App,
  clientId: string,
  clientSecret: string,
): Promise<Reply<{ access_token: string; expires_in: number; token_type: string }>> {
  return call(app, 'POST', '/api/external/v1/auth/token', {
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export interface Provisioned {
  tenant: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

/** A tenant with one API client and a fresh token, all through the control API and endpoint 21. */
export async function provision(app: App, tenant: string, settings?: Record<string, boolean>): Promise<Provisioned> {
  const created = await control(app, 'POST', '/tenants', { id: tenant, ...(settings ? { settings } : {}) });
  if (created.status !== 201) throw new Error(`tenant ${tenant}: ${created.status} ${JSON.stringify(created.body)}`);
  const client = await control<{ client_id: string; client_secret: string }>(
    app,
    'POST',
    `/tenants/${tenant}/api-clients`,
    { name: 'test' },
  );
  if (client.status !== 201) throw new Error(`client: ${client.status} ${JSON.stringify(client.body)}`);
  const token = await issueToken(app, client.body.client_id, client.body.client_secret);
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  return {
    tenant,
    clientId: client.body.client_id,
    clientSecret: client.body.client_secret,
    token: token.body.access_token,
  };
}

export const API = '/api/external/v1';

/** The spec's bad-request object: every member a string, status included. */
export function expectBadRequestObject(body: unknown, status: number): Record<string, string> {
  const b = body as Record<string, unknown>;
  for (const key of ['entityName', 'errorKey', 'type', 'title', 'status', 'message', 'params']) {
    if (typeof b[key] !== 'string')
      throw new Error(`bad-request object: ${key} is not a string in ${JSON.stringify(body)}`);
  }
  if (b.status !== String(status))
    throw new Error(`bad-request object: status ${String(b.status)} instead of "${status}"`);
  return b as Record<string, string>;
}
