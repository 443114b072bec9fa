import ky, { isTimeoutError, type KyInstance } from 'ky';

export interface JsonAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * A small JSON client for the demo's calls to the service's ERP API and the emulator's control
 * API: it never throws on an HTTP status (the scenario checks statuses as expectations).
 */
export class JsonHttp {
  readonly #ky: KyInstance;

  constructor(
    readonly baseUrl: string,
    headers: Record<string, string> = {},
  ) {
    this.#ky = ky.create({ prefixUrl: baseUrl, headers, throwHttpErrors: false, retry: 0, timeout: 60_000 });
  }

  async request<T = unknown>(method: string, path: string, json?: unknown): Promise<JsonAnswer<T>> {
    let res: Response;
    try {
      res = await this.#ky(path.replace(/^\//, ''), { method, ...(json === undefined ? {} : { json }) });
    } catch (err) {
      throw new UnreachableError(this.baseUrl, err);
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, json?: unknown) {
    return this.request<T>('POST', path, json ?? {});
  }

  put<T = unknown>(path: string, json: unknown) {
    return this.request<T>('PUT', path, json);
  }
}

/** No answer at all from `url` (refused, unknown host, timeout): fetch's own message is only "fetch failed". */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    const reason = isTimeoutError(cause)
      ? 'no answer in time'
      : ((cause as { cause?: { code?: string; message?: string } }).cause?.code ?? (cause as Error).message);
    super(`cannot reach ${url} (${reason})`);
    this.name = 'UnreachableError';
  }
}

/** Fails with a readable message when an answer's status is not the one expected. */
export function expectStatus<T>(answer: JsonAnswer<T>, expected: number | number[], what: string): T {
  const ok = Array.isArray(expected) ? expected.includes(answer.status) : answer.status === expected;
  if (!ok) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
