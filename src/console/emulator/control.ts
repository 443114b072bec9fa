/**
 * The console's client of the emulator's control API, over HTTP: the service never imports the
 * emulator. The demo composition (`wms-sync start`) hands the console an `EmulatorLink`; without
 * one the emulator panel does not exist.
 */
export interface EmulatorLink {
  /** The emulator's base URL, e.g. http://127.0.0.1:8090 */
  url: string;
  /** The tenant whose warehouse the panel drives (the demo tenant). */
  tenant: string;
  /** The service's connection wired to that tenant: the panel shows on its pages only. */
  connection: string;
  /** EMULATOR_ADMIN_TOKEN, when the control API requires one. */
  adminToken?: string | undefined;
}

/** The emulator refused (its status and message) or could not be reached (status 0). */
export class ControlCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlCallError';
  }
}

export interface WebhookLogEntry {
  id: number;
  kind: string;
  closingDocumentCode: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempt: number;
  response: { status: number; body: unknown } | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const TIMEOUT_MS = 10_000;

export function controlClient(link: EmulatorLink) {
  const base = `${link.url.replace(/\/+$/, '')}/_emulator/tenants/${encodeURIComponent(link.tenant)}`;
  return async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (link.adminToken) headers.authorization = `Bearer ${link.adminToken}`;
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new ControlCallError(0, `The emulator at ${link.url} does not answer (${cause})`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const message = (parsed as { message?: unknown } | null)?.message;
      throw new ControlCallError(
        res.status,
        `The emulator answered ${res.status}: ${typeof message === 'string' ? message : text.slice(0, 300)}`,
      );
    }
    return parsed as T;
  };
}

export type ControlCall = ReturnType<typeof controlClient>;
