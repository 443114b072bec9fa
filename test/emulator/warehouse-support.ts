import { API, call, control, provision, type Reply, setup } from './support.js';

type App = ReturnType<typeof setup>['app'];

/** A tenant with products P1 (plain), LOT (lot-tracked, expiry), SER (serialised), and a token. */
export async function warehouseTenant(options: Parameters<typeof setup>[0] = {}, name = 'acme') {
  const env = setup(options);
  const p = await provision(env.app, name);
  const products = [
    { externalCode: 'P1', description: 'Plain product' },
    {
      externalCode: 'LOT',
      description: 'Lot product',
      withLots: true,
      withExpirationDate: true,
      lots: [{ code: 'L1', active: true, expirationDate: '2026-01-31' }],
    },
    { externalCode: 'SER', description: 'Serialised product', withSerialNumbers: true },
  ];
  for (const json of products) {
    const res = await call(env.app, 'POST', `${API}/product`, { token: p.token, json });
    if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { ...env, ...p };
}

export async function createDocument(app: App, token: string, document: Record<string, unknown>): Promise<void> {
  const res = await call(app, 'POST', `${API}/document`, {
    token,
    json: { documentNumber: `N-${String(document.externalCode)}`, ...document },
  });
  if (res.status !== 201) throw new Error(`document: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A control call that must succeed; answers its body. */
export async function ok<T = Record<string, unknown>>(
  app: App,
  method: string,
  path: string,
  json?: unknown,
): Promise<T> {
  const res: Reply<T> = await control<T>(app, method, path, json);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function stock(app: App, token: string, request: Record<string, unknown>) {
  return call<Record<string, unknown>[]>(app, 'POST', `${API}/product/stock`, { token, json: request });
}
