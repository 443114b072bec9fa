import { afterEach, describe, expect, it } from 'vitest';
import { Gate } from '../../src/emulator/capacity/gate.js';
import { CapacityRegistry } from '../../src/emulator/capacity/registry.js';
import { newBucket, take } from '../../src/emulator/capacity/token-bucket.js';
import { type EmulatorServer, startEmulatorServer } from '../../src/emulator/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { API, call, control, expectBadRequestObject, provision, setup } from './support.js';

/** A sleep the test ends itself: the requested waits are visible, none passes on its own. */
function heldSleep() {
  const pending: { ms: number; done: () => void }[] = [];
  let notify: (() => void) | undefined;
  return {
    pending,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        pending.push({ ms, done: resolve });
        notify?.();
      }),
    /** Resolves once `n` sleeps are waiting. */
    waitFor: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (pending.length >= n ? resolve() : (notify = check));
        check();
      }),
  };
}

describe('token bucket', () => {
  it('lets a burst through, then refuses with the time until the next token, and refills with time', () => {
    const b = newBucket(200, 20, 0);
    for (let i = 0; i < 20; i++) expect(take(b, 0)).toEqual({ ok: true });
    expect(take(b, 0)).toEqual({ ok: false, waitMs: 5 });
    expect(take(b, 4)).toMatchObject({ ok: false });
    expect(take(b, 5)).toEqual({ ok: true });
    // a long quiet spell never stores more than the burst
    expect(Array.from({ length: 25 }, () => take(b, 60_000).ok).filter(Boolean)).toHaveLength(20);
  });

  it('sustains exactly its rate over time', () => {
    const b = newBucket(10, 1, 0);
    let admitted = 0;
    for (let t = 0; t < 10_000; t += 10) if (take(b, t).ok) admitted += 1;
    expect(admitted).toBe(100);
  });
});

describe('gate (concurrency)', () => {
  it('serves `limit` at once and lets the others in, in arrival order', async () => {
    const gate = new Gate(2);
    const order: number[] = [];
    await gate.enter();
    await gate.enter();
    const third = gate.enter().then(() => order.push(3));
    const fourth = gate.enter().then(() => order.push(4));
    expect(gate.queued).toBe(2);
    gate.leave();
    await third;
    expect(order).toEqual([3]);
    expect(gate.active).toBe(2);
    gate.leave();
    await fourth;
    gate.leave();
    gate.leave();
    expect(gate.active).toBe(0);
    expect(order).toEqual([3, 4]);
  });
});

describe('capacity registry', () => {
  it('is free for a tenant without a model; refuses over the rate with whole seconds to wait', () => {
    const clock = new ManualClock(0);
    const reg = new CapacityRegistry(
      clock,
      () => Promise.resolve(),
      () => clock.nowMs(),
    );
    expect(reg.admit('acme').ok).toBe(true);
    reg.set('acme', { ratePerSecond: 0.5, burst: 1 });
    expect(reg.admit('acme').ok).toBe(true);
    expect(reg.admit('acme')).toEqual({ ok: false, retryAfterSeconds: 2 });
    clock.advance(2000);
    expect(reg.admit('acme').ok).toBe(true);
    expect(reg.get('acme')?.stats).toMatchObject({ admitted: 2, limited: 1 });
    expect(reg.admit('other').ok).toBe(true);
  });

  it('the base latency holds the slot: beyond the concurrency, calls queue behind it', async () => {
    const held = heldSleep();
    const clock = new ManualClock(0);
    const reg = new CapacityRegistry(clock, held.sleep, () => clock.nowMs());
    reg.set('acme', { concurrency: 1, latencyMs: 50 });
    const served: string[] = [];
    const serve = (name: string) => {
      const a = reg.admit('acme');
      if (!a.ok) throw new Error('refused');
      return a.serve(async () => served.push(name));
    };
    const first = serve('first');
    const second = serve('second');
    await held.waitFor(1);
    expect(held.pending.map((p) => p.ms)).toEqual([50]);
    // the first call's work is done; its answer waits out the latency, holding the only slot
    expect(served).toEqual(['first']);
    expect(reg.get('acme')?.stats).toMatchObject({ active: 1, queued: 1 });
    held.pending[0]!.done();
    await first;
    expect(served).toEqual(['first']);
    await held.waitFor(2);
    held.pending[1]!.done();
    await second;
    expect(served).toEqual(['first', 'second']);
    expect(reg.get('acme')?.stats).toMatchObject({ active: 0, queued: 0, admitted: 2 });
  });
});

describe('the base latency is the whole service time', () => {
  it("the call's own work counts towards it: the answer waits only what is left, and not at all past it", async () => {
    const held = heldSleep();
    const clock = new ManualClock(0);
    const reg = new CapacityRegistry(clock, held.sleep, () => clock.nowMs());
    reg.set('acme', { concurrency: 4, latencyMs: 50 });
    const serve = (workMs: number) => {
      const a = reg.admit('acme');
      if (!a.ok) throw new Error('refused');
      return a.serve(async () => {
        clock.advance(workMs);
        return workMs;
      });
    };
    const quick = serve(20);
    await held.waitFor(1);
    expect(held.pending.map((p) => p.ms)).toEqual([30]);
    // work longer than the latency: answered when done, no wait on top
    expect(await serve(70)).toBe(70);
    expect(held.pending).toHaveLength(1);
    held.pending[0]!.done();
    expect(await quick).toBe(20);
    expect(reg.get('acme')?.stats).toMatchObject({ active: 0, admitted: 2 });
  });

  it('a call whose work fails still takes the latency, then fails', async () => {
    const held = heldSleep();
    const clock = new ManualClock(0);
    const reg = new CapacityRegistry(clock, held.sleep, () => clock.nowMs());
    reg.set('acme', { latencyMs: 50 });
    const a = reg.admit('acme');
    if (!a.ok) throw new Error('refused');
    const failed = a
      .serve(async () => {
        throw new Error('boom');
      })
      .catch((e: Error) => e.message);
    await held.waitFor(1);
    expect(held.pending.map((p) => p.ms)).toEqual([50]);
    held.pending[0]!.done();
    expect(await failed).toBe('boom');
  });
});

describe('PUT/GET/DELETE /_emulator/tenants/{tenant}/capacity', () => {
  it('sets, reads and turns off a model; burst defaults to one second of the rate', async () => {
    const { app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    expect((await control(app, 'GET', '/tenants/acme/capacity')).status).toBe(404);
    const put = await control(app, 'PUT', '/tenants/acme/capacity', {
      ratePerSecond: 200,
      burst: 20,
      concurrency: 64,
      latencyMs: 50,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      ratePerSecond: 200,
      burst: 20,
      concurrency: 64,
      latencyMs: 50,
      stats: { admitted: 0, limited: 0, queued: 0, active: 0 },
    });
    expect((await control(app, 'GET', '/tenants/acme/capacity')).body).toEqual(put.body);
    expect((await control(app, 'PUT', '/tenants/acme/capacity', { ratePerSecond: 5 })).body).toMatchObject({
      ratePerSecond: 5,
      burst: 5,
      concurrency: null,
      latencyMs: 0,
    });
    expect((await control(app, 'PUT', '/tenants/acme/capacity', {})).body).toMatchObject({
      ratePerSecond: null,
      burst: null,
      concurrency: null,
    });
    expect((await control(app, 'DELETE', '/tenants/acme/capacity')).status).toBe(204);
    expect((await control(app, 'GET', '/tenants/acme/capacity')).status).toBe(404);
  });

  it('400 for bad values and unknown members, 404 for an unknown tenant, in the control error body', async () => {
    const { app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    for (const body of [
      { ratePerSecond: 0 },
      { ratePerSecond: -1 },
      { concurrency: 1.5 },
      { latencyMs: -5 },
      { burst: 10 },
      { rate: 5 },
      { concurrency: 'x' },
    ]) {
      const res = await control(app, 'PUT', '/tenants/acme/capacity', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    const bad = await call(app, 'PUT', '/_emulator/tenants/acme/capacity', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await control(
        app,
        method,
        '/tenants/nobody/capacity',
        method === 'PUT' ? { concurrency: 1 } : undefined,
      );
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'tenant_not_found' });
    }
  });

  it('needs the admin token when one is set; an API token does not open it', async () => {
    const { app } = setup({ adminToken: 'admin-secret-123' });
    const admin = { authorization: 'Bearer admin-secret-123' };
    expect((await call(app, 'POST', '/_emulator/tenants', { json: { id: 'acme' }, headers: admin })).status).toBe(201);
    expect((await call(app, 'PUT', '/_emulator/tenants/acme/capacity', { json: { concurrency: 1 } })).status).toBe(401);
    expect(
      (await call(app, 'PUT', '/_emulator/tenants/acme/capacity', { json: { concurrency: 1 }, token: 'wrong' })).status,
    ).toBe(401);
    expect((await call(app, 'GET', '/_emulator/tenants/acme/capacity', { token: 'wrong' })).status).toBe(401);
    expect((await call(app, 'DELETE', '/_emulator/tenants/acme/capacity', { token: 'wrong' })).status).toBe(401);
    expect(
      (await call(app, 'PUT', '/_emulator/tenants/acme/capacity', { json: { concurrency: 1 }, headers: admin })).status,
    ).toBe(200);
  });

  it('is cleared by the whole-state reset', async () => {
    const { emulator, app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    await control(app, 'PUT', '/tenants/acme/capacity', { concurrency: 1 });
    emulator.state.resetAll();
    expect(emulator.state.capacity.get('acme')).toBeUndefined();
  });
});

describe('the capacity model over HTTP', () => {
  let server: EmulatorServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('beyond the rate: 429, the spec bad-request object and Retry-After; other tenants and the token endpoint unaffected', async () => {
    const clock = new ManualClock(new Date('2025-03-01T12:00:00Z'));
    server = await startEmulatorServer({ clock });
    const { app } = server.emulator;
    const acme = await provision(app, 'acme');
    const beta = await provision(app, 'beta');
    await control(app, 'PUT', '/tenants/acme/capacity', { ratePerSecond: 1, burst: 2 });
    const get = (token: string) =>
      fetch(`${server!.url}${API}/product/none`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get(acme.token)).status).toBe(404);
    expect((await get(acme.token)).status).toBe(404);
    const limited = await get(acme.token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expectBadRequestObject(await limited.json(), 429);
    expect((await get(beta.token)).status).toBe(404);
    const token = await fetch(`${server.url}${API}/auth/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: acme.clientId, client_secret: acme.clientSecret }),
    });
    expect(token.status).toBe(200);
    clock.advance(1000);
    expect((await get(acme.token)).status).toBe(404);
    expect((await control(app, 'GET', '/tenants/acme/capacity')).body).toMatchObject({
      stats: { admitted: 3, limited: 1 },
    });
    // an unauthenticated call is refused as before, and spends nothing
    expect((await fetch(`${server.url}${API}/product/none`)).status).toBe(401);
  });

  it('beyond the concurrency, calls queue: their latency grows with the queue', async () => {
    const held = heldSleep();
    // A clock that stands still: each call's work takes no time, so each answer waits the whole latency.
    server = await startEmulatorServer({ sleep: held.sleep, clock: new ManualClock() });
    const { app } = server.emulator;
    const acme = await provision(app, 'acme');
    await control(app, 'PUT', '/tenants/acme/capacity', { concurrency: 2, latencyMs: 50 });
    const get = () =>
      fetch(`${server!.url}${API}/product/none`, { headers: { authorization: `Bearer ${acme.token}` } }).then(
        (r) => r.status,
      );
    const calls = [get(), get(), get()];
    await held.waitFor(2);
    const stats = async () =>
      (await control<{ stats: { active: number; queued: number } }>(app, 'GET', '/tenants/acme/capacity')).body.stats;
    // the third request reaches the server on its own time: wait until it stands in the queue
    while ((await stats()).queued < 1) await new Promise((r) => setImmediate(r));
    expect(await stats()).toMatchObject({ active: 2, queued: 1 });
    expect(held.pending).toHaveLength(2);
    held.pending[0]!.done();
    await held.waitFor(3);
    // the third waited for the first: only then did its own 50 ms begin
    expect(held.pending.map((p) => p.ms)).toEqual([50, 50, 50]);
    held.pending[1]!.done();
    held.pending[2]!.done();
    expect(await Promise.all(calls)).toEqual([404, 404, 404]);
  });

  it('every API call takes at least latencyMs (real time)', async () => {
    server = await startEmulatorServer();
    const { app } = server.emulator;
    const acme = await provision(app, 'acme');
    await control(app, 'PUT', '/tenants/acme/capacity', { latencyMs: 40 });
    const started = performance.now();
    const res = await fetch(`${server.url}${API}/product/none`, { headers: { authorization: `Bearer ${acme.token}` } });
    expect(res.status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });
});
