import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpRequest, readBody, send, wmsAgent } from '../../src/wms-client/http.js';
import { WmsError } from '../../src/wms-client/index.js';

/**
 * The one HTTP exchange of the WMS client (undici's `request`) against a real local server that
 * answers what each test sets: what goes on the wire, how the answer is read, and how each way a
 * call can fail becomes a WmsError.
 */
describe('WMS client HTTP exchange', () => {
  let server: http.Server;
  let base: string;
  let handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
  const agent = wmsAgent(10_000);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => handler(req, body, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => server.closeAllConnections());
  afterAll(async () => {
    await agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const req = (over: Partial<HttpRequest> = {}): HttpRequest => ({
    operation: 'getProduct',
    method: 'GET',
    url: `${base}/api/external/v1/product/A`,
    path: '/api/external/v1/product/A',
    ...over,
  });
  const failure = async (p: Promise<unknown>): Promise<WmsError> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WmsError);
    return err as WmsError;
  };

  it('sends JSON with its content type, the query string and the headers; reads status, headers by name and the body', async () => {
    let seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    handler = (r, body, res) => {
      seen = { method: r.method, url: r.url, headers: r.headers, body };
      res.setHeader('X-Total-Count', '42');
      res.setHeader('Link', ['<a>; rel="next"', '<b>; rel="last"']);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    const answer = await send(
      req({
        method: 'PUT',
        json: { externalCode: 'A', qty: 1 },
        searchParams: new URLSearchParams({ page: '2', size: '10' }),
        headers: { authorization: 'Bearer t' },
      }),
      { timeoutMs: 10_000, dispatcher: agent },
    );
    expect(seen).toMatchObject({
      method: 'PUT',
      url: '/api/external/v1/product/A?page=2&size=10',
      body: '{"externalCode":"A","qty":1}',
    });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer t',
    });
    expect(answer).toMatchObject({ status: 201, ok: true });
    expect(answer.headers.get('x-total-count')).toBe('42');
    expect(answer.headers.get('X-Total-Count')).toBe('42');
    expect(answer.headers.get('link')).toBe('<a>; rel="next", <b>; rel="last"');
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(await readBody(answer)).toEqual({ ok: true });
  });

  it('sends a form (the token request) url-encoded, never in the URL', async () => {
    let seen: { url?: string; type?: string; body?: string } = {};
    handler = (r, body, res) => {
      seen = { url: r.url, type: r.headers['content-type'], body };
      res.writeHead(200).end('');
    };
    const answer = await send(
      req({ method: 'POST', form: new URLSearchParams({ client_id: 'id', client_secret: 's&=cret' }) }),
      { timeoutMs: 10_000, dispatcher: agent },
    );
    expect(seen).toEqual({
      url: '/api/external/v1/product/A',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      body: 'client_id=id&client_secret=s%26%3Dcret',
    });
    expect(await readBody(answer)).toBeUndefined();
  });

  it('an error status is an answer, not an exception; a body that is not JSON reads as text', async () => {
    handler = (_r, _b, res) => res.writeHead(503, { 'retry-after': '2' }).end('down for maintenance');
    const answer = await send(req(), { timeoutMs: 10_000, dispatcher: agent });
    expect(answer).toMatchObject({ status: 503, ok: false });
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(await readBody(answer)).toBe('down for maintenance');
  });

  it('no answer within the timeout: a retryable timeout', async () => {
    handler = () => undefined; // never answers
    const err = await failure(send(req(), { timeoutMs: 200 }));
    expect(err).toMatchObject({
      kind: 'timeout',
      retryable: true,
      operation: 'getProduct',
      path: '/api/external/v1/product/A',
    });
  });

  it('headers, then a body that stops coming: the read fails as a timeout too', async () => {
    handler = (_r, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"externalCode":');
    };
    const answer = await send(req(), { timeoutMs: 200 });
    expect(answer.status).toBe(200);
    expect(await failure(readBody(answer))).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('nobody listening: a retryable network error naming the cause', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(send(req({ url: `http://127.0.0.1:${port}/x` }), { timeoutMs: 10_000 }));
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('a call the stopping service abandons: network error saying so, before or during the call', async () => {
    const before = new AbortController();
    before.abort();
    expect((await failure(send(req(), { timeoutMs: 10_000, signal: before.signal }))).message).toContain(
      'abandoned: the service is stopping',
    );

    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    handler = () => arrived(); // holds the call
    const during = new AbortController();
    const call = failure(send(req(), { timeoutMs: 10_000, signal: during.signal, dispatcher: agent }));
    await inFlight;
    during.abort();
    expect((await call).message).toContain('abandoned: the service is stopping');
  });
});
