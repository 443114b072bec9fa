import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { redoclyRecommended } from '../support/openapi-lint.js';
import { startTestService, type TestService } from '../support/service.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
}
interface Document {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** What every generated client relies on, for both documents. */
function expectNamedAndTagged(doc: Document): void {
  const ids = operations(doc).map(({ where, op }) => {
    expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(op.security, `${where} declares its security`).toBeDefined();
    for (const tag of op.tags ?? [])
      expect(
        doc.tags?.map((t) => t.name),
        where,
      ).toContain(tag);
    return op.operationId;
  });
  expect(new Set(ids).size).toBe(ids.length);
  expect(doc.info.license?.name).toBe('MIT');
  for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
}

describe("the service's /openapi.json", () => {
  let svc: TestService;
  let doc: Document;
  beforeAll(async () => {
    svc = await startTestService({
      label: 'openapi-lint',
      // The admin API's operations are in the document only when it exists.
      env: { PUBLIC_URL: 'https://wms-sync.acme.internal/', ADMIN_TOKEN: 'a'.repeat(32) },
    });
    doc = (await (await svc.app.request('/openapi.json')).json()) as Document;
  });
  afterAll(() => svc.close());

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    expect(await redoclyRecommended(doc, 'service.json')).toEqual([]);
  });

  it('names, tags and secures every operation; the server is PUBLIC_URL', () => {
    expectNamedAndTagged(doc);
    expect(operations(doc).length).toBeGreaterThan(40);
    expect(doc.servers).toEqual([{ url: 'https://wms-sync.acme.internal', description: 'This wms-sync service' }]);
  });

  it('keeps the operationIds ERP clients are generated with', () => {
    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'putProduct',
        'putDeliveryPointsBatch',
        'getDocument',
        'retryDocumentPush',
        'cancelDocument',
        'listFeedEntries',
        'getFeedEntry',
        'startReconciliation',
        'receiveReceptionCloseWebhook',
        'adminListEvents',
      ]),
    );
  });
});

describe("the service's /openapi.json with no PUBLIC_URL", () => {
  it('names the origin it was requested from as its server', async () => {
    const svc = await startTestService({ label: 'openapi-origin' });
    try {
      const res = await svc.app.request('http://sync.acme.internal:8080/openapi.json');
      expect(((await res.json()) as Document).servers?.[0]?.url).toBe('http://sync.acme.internal:8080');
    } finally {
      await svc.close();
    }
  });
});

describe("the emulator's /_emulator/openapi.json", () => {
  let emulator: Emulator;
  let doc: Document;
  beforeAll(async () => {
    emulator = createEmulator();
    doc = (await (await emulator.app.request('http://wms.acme.internal/_emulator/openapi.json')).json()) as Document;
  });
  afterAll(() => emulator.close());

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    expect(await redoclyRecommended(doc, 'emulator.json')).toEqual([]);
  });

  it('names, tags and secures every operation; the server is the origin it was requested from', () => {
    expectNamedAndTagged(doc);
    expect(doc.servers?.[0]?.url).toBe('http://wms.acme.internal');
    expect(doc.paths['/_emulator/tenants']?.post?.security).toEqual([{ emulatorAdmin: [] }, {}]);
    expect(doc.paths['/api/external/v1/auth/token']?.post?.security).toEqual([]);
  });
});
