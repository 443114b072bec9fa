import { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from '../../src/emulator/index.js';
import type { ConnectionConfig, ConnectionInput } from '../../src/lib/connections.js';
import { testConnection } from './service.js';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface RunningEmulator {
  url: string;
  server: EmulatorServer;
  /** A tenant with one API client (option A), made through the control API over HTTP. */
  tenant(id: string, settings?: Record<string, boolean>): Promise<Credentials>;
  /** Option B credentials for a tenant, as the operator would provision them. */
  oauthClient(tenant: string, audience: string): Promise<Credentials & { audience: string }>;
  control(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The real WMS emulator on a port of its own (loopback), driven over HTTP like any integrator does. */
export async function startEmulator(options: EmulatorServerOptions = {}): Promise<RunningEmulator> {
  const server = await startEmulatorServer(options);
  const control = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${server.url}/_emulator${path}`, {
      method,
      ...(json !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const ok = (what: string, reply: { status: number; body: any }) => {
    if (reply.status >= 300) throw new Error(`emulator ${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  return {
    url: server.url,
    server,
    control,
    tenant: async (id, settings) => {
      ok('tenant', await control('POST', '/tenants', { id, ...(settings ? { settings } : {}) }));
      const client = ok('api client', await control('POST', `/tenants/${id}/api-clients`, { name: 'wms-sync' }));
      return { clientId: client.client_id, clientSecret: client.client_secret };
    },
    oauthClient: async (tenant, audience) => {
      const client = ok('oauth client', await control('POST', `/tenants/${tenant}/oauth-clients`, { audience }));
      return { clientId: client.client_id, clientSecret: client.client_secret, audience: client.audience };
    },
    close: () => server.close(),
  };
}

/** A service connection whose WMS is `baseUrl` (the emulator, or a proxy in front of it). */
export function wmsConnection(
  name: string,
  baseUrl: string,
  credentials: Credentials,
  overrides: Partial<ConnectionInput> = {},
): ConnectionConfig {
  return testConnection(name, {
    wmsBaseUrl: baseUrl,
    wmsClientId: credentials.clientId,
    wmsClientSecret: credentials.clientSecret,
    ...overrides,
  });
}
