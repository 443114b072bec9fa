import { describe, expect, it } from 'vitest';
import {
  API_CLIENT_TOKEN_LIFETIME_SECONDS,
  badRequestObjectSchema,
  closeReceptionPayloadSchema,
  closeShippingOrderPayloadSchema,
  conflictObjectSchema,
  deliveryPointSchema,
  documentCancelSchema,
  documentSchema,
  OAUTH2_TOKEN_LIFETIME_SECONDS,
  oauthTokenRequestSchema,
  productExternalCodesResponseSchema,
  productSchema,
  receptionDifferencesSchema,
  stockRegularizationPayloadSchema,
  stockRequestSchema,
  stockResponseSchema,
  TOKEN_REFRESH_MARGIN_SECONDS,
  tokenErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  WMS_BASE_PATH,
  wmsPath,
} from '../../src/wms/index.js';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('spec constants', () => {
  it('base path, token lifetimes and refresh margin are the spec values', () => {
    // spec: "all operations live under /api/external/v1"; "API client token lifetime 3600 seconds";
    // "Identity-provider token lifetime 86400 seconds"; "refresh of client tokens 5 minutes before expiry"
    expect(WMS_BASE_PATH).toBe('/api/external/v1');
    expect(API_CLIENT_TOKEN_LIFETIME_SECONDS).toBe(3600);
    expect(OAUTH2_TOKEN_LIFETIME_SECONDS).toBe(86_400);
    expect(TOKEN_REFRESH_MARGIN_SECONDS).toBe(300);
  });

  it('fills path parameters URI-encoded and refuses a missing one', () => {
    expect(wmsPath('productByExternalCode', { externalCode: 'A/B C' })).toBe('/api/external/v1/product/A%2FB%20C');
    expect(wmsPath('documentCancel')).toBe('/api/external/v1/document/cancel');
    expect(() => wmsPath('receptionDifferences')).toThrow(/receptionCode/);
  });
});

describe('Product', () => {
  const product = {
    externalCode: 'P1',
    description: 'Widget',
    handlingUnit: 'KG',
    barcodes: [{ code: '123', type: 'GTIN' }],
    lots: [{ code: 'L1', active: true, expirationDate: '2030-01-31' }],
    abbreviation: null,
  };

  it('accepts a full product, nulls for optional members', () => {
    expect(productSchema.safeParse(product).success).toBe(true);
  });

  it('requires externalCode and description (spec: "Required: externalCode, description")', () => {
    expect(paths(productSchema.safeParse({}))).toEqual(['externalCode', 'description']);
  });

  it('refuses a handling unit or barcode type outside the enums', () => {
    expect(paths(productSchema.safeParse({ ...product, handlingUnit: 'BOX' }))).toEqual(['handlingUnit']);
    expect(paths(productSchema.safeParse({ ...product, barcodes: [{ code: '1', type: 'EAN' }] }))).toEqual([
      'barcodes.0.type',
    ]);
  });

  it('requires barcode code and type, lot code and active', () => {
    expect(paths(productSchema.safeParse({ ...product, barcodes: [{}], lots: [{}] }))).toEqual([
      'barcodes.0.code',
      'barcodes.0.type',
      'lots.0.code',
      'lots.0.active',
    ]);
  });

  it('refuses a lot expiration that is not a real date', () => {
    expect(
      paths(productSchema.safeParse({ ...product, lots: [{ code: 'L', active: true, expirationDate: '2023-02-29' }] })),
    ).toEqual(['lots.0.expirationDate']);
  });

  it('refuses duplicate barcodes (spec: "unique items")', () => {
    const twice = {
      ...product,
      barcodes: [
        { code: '1', type: 'GTIN' },
        { type: 'GTIN', code: '1' },
      ],
    };
    expect(paths(productSchema.safeParse(twice))).toEqual(['barcodes']);
  });

  it('refuses wrong types instead of coercing them', () => {
    expect(paths(productSchema.safeParse({ ...product, weight: '2.5', withLots: 'true' }))).toEqual([
      'withLots',
      'weight',
    ]);
  });

  it('reads endpoint 6 as a comma-separated string or as an array', () => {
    expect(productExternalCodesResponseSchema.parse('A, B,,C')).toEqual(['A', 'B', 'C']);
    expect(productExternalCodesResponseSchema.parse(['A', 'B'])).toEqual(['A', 'B']);
    expect(productExternalCodesResponseSchema.parse('')).toEqual([]);
  });
});

describe('Document', () => {
  const doc = {
    externalCode: 'D1',
    documentNumber: 'PO-1',
    documentType: 'PURCHASE_ORDER',
    documentDate: '2024-05-01',
    deliveryDate: '2024-05-03T10:00:00+02:00',
    lines: [{ lineNumber: 1, quantity: 5, productExternalCode: 'P1', categories: [{ category: 'A', quantity: 5 }] }],
  };

  it('accepts a document with lines and categories', () => {
    expect(documentSchema.safeParse(doc).success).toBe(true);
  });

  it('requires externalCode, documentNumber, documentType; lines need lineNumber, quantity, productExternalCode', () => {
    expect(paths(documentSchema.safeParse({ lines: [{}] }))).toEqual([
      'externalCode',
      'documentNumber',
      'documentType',
      'lines.0.lineNumber',
      'lines.0.quantity',
      'lines.0.productExternalCode',
    ]);
  });

  it('deliveryDate is a date-time with offset; documentDate a date', () => {
    expect(
      paths(
        documentSchema.safeParse({ ...doc, deliveryDate: '2024-05-03T10:00:00', documentDate: '2024-05-01T00:00:00Z' }),
      ),
    ).toEqual(['documentDate', 'deliveryDate']);
    expect(documentSchema.safeParse({ ...doc, deliveryDate: '2024-05-03T10:00:00.123Z' }).success).toBe(true);
  });

  it('refuses an unknown document type; line numbers are int32', () => {
    expect(paths(documentSchema.safeParse({ ...doc, documentType: 'INVOICE' }))).toEqual(['documentType']);
    expect(paths(documentSchema.safeParse({ ...doc, lines: [{ ...doc.lines[0], lineNumber: 2 ** 31 }] }))).toEqual([
      'lines.0.lineNumber',
    ]);
  });

  it('cancel request requires externalCode and documentType', () => {
    expect(paths(documentCancelSchema.safeParse({}))).toEqual(['externalCode', 'documentType']);
  });
});

describe('Delivery point', () => {
  it('requires externalCode, active and name; types are SUPPLIER or CLIENT, unique', () => {
    expect(paths(deliveryPointSchema.safeParse({}))).toEqual(['externalCode', 'active', 'name']);
    const dp = { externalCode: 'C1', active: true, name: 'Shop' };
    expect(deliveryPointSchema.safeParse({ ...dp, types: ['CLIENT', 'SUPPLIER'] }).success).toBe(true);
    expect(paths(deliveryPointSchema.safeParse({ ...dp, types: ['CARRIER'] }))).toEqual(['types.0']);
    expect(paths(deliveryPointSchema.safeParse({ ...dp, types: ['CLIENT', 'CLIENT'] }))).toEqual(['types']);
  });
});

describe('stock and differences', () => {
  it('stock request has no required members; products entries need product', () => {
    expect(stockRequestSchema.safeParse({}).success).toBe(true);
    expect(paths(stockRequestSchema.safeParse({ products: [{ lot: 'L' }] }))).toEqual(['products.0.product']);
  });

  it('reads stock as an array or a single row', () => {
    expect(stockResponseSchema.parse({ product: 'P', bulk: 1 })).toEqual([{ product: 'P', bulk: 1 }]);
    expect(stockResponseSchema.parse([])).toEqual([]);
  });

  it('reception differences: status enum, items need product and quantity', () => {
    expect(paths(receptionDifferencesSchema.safeParse({ receptionStatus: 'OPEN', productDifferences: [{}] }))).toEqual([
      'receptionStatus',
      'productDifferences.0.productExternalCode',
      'productDifferences.0.quantity',
    ]);
  });
});

describe('webhook payloads', () => {
  const line = { externalCode: 'P1', quantity: 3, lotCode: 'L1', expirationDate: '2030-01-01', serialNumbers: ['S1'] };
  const close = {
    closingDocumentCode: 'CD-1',
    documentNumber: ['PO-1'],
    documentExternalCode: 'D1',
    documentType: 'PURCHASE_ORDER',
    lines: [line],
  };

  it('close reception: needs the idempotency key and lines with product and quantity; the document may be absent', () => {
    expect(closeReceptionPayloadSchema.safeParse({ ...close, receptionDate: '2024-01-02' }).success).toBe(true);
    // The receiver accepts documentExternalCode and documentType null or absent (docs/webhooks.md).
    expect(paths(closeReceptionPayloadSchema.safeParse({ lines: [{}] }))).toEqual([
      'closingDocumentCode',
      'lines.0.externalCode',
      'lines.0.quantity',
    ]);
  });

  it('close shipping order carries a packingList of packages with weight and lines', () => {
    const payload = {
      ...close,
      documentType: 'CLIENT_EXPEDITION',
      packingList: [{ packingCode: 'PK1', weight: 2.5, lines: [{ externalCode: 'P1', quantity: 3 }] }],
    };
    expect(closeShippingOrderPayloadSchema.parse(payload).packingList?.[0]?.weight).toBe(2.5);
    expect(paths(closeShippingOrderPayloadSchema.safeParse({ ...payload, packingList: [{ weight: 'x' }] }))).toEqual([
      'packingList.0.weight',
    ]);
  });

  it('stock regularization: movementTime with offset, lotCode and warehouse may be null', () => {
    const reg = {
      productExternalCode: 'P1',
      lotCode: null,
      quantity: -2,
      movementTime: '2024-01-02T03:04:05+01:00',
      warehouse: null,
    };
    expect(stockRegularizationPayloadSchema.safeParse(reg).success).toBe(true);
    expect(paths(stockRegularizationPayloadSchema.safeParse({ ...reg, movementTime: '2024-01-02T03:04:05' }))).toEqual([
      'movementTime',
    ]);
  });
});

describe('errors and tokens', () => {
  it('bad-request object members are strings, status included', () => {
    expect(paths(badRequestObjectSchema.safeParse({ status: 400 }))).toEqual(['status']);
    expect(badRequestObjectSchema.safeParse({ status: '400', errorKey: 'x', params: 'product' }).success).toBe(true);
  });

  it('conflict object status is an object with reasonPhrase and statusCode', () => {
    expect(
      conflictObjectSchema.safeParse({ status: { reasonPhrase: 'Conflict', statusCode: 409 }, stackTrace: [] }).success,
    ).toBe(true);
    expect(paths(conflictObjectSchema.safeParse({ status: '409' }))).toEqual(['status']);
  });

  it('token request requires client_id and client_secret; option B also audience, and grant_type client_credentials or password with its user and scope', () => {
    expect(paths(tokenRequestSchema.safeParse({}))).toEqual(['client_id', 'client_secret']);
    const client = { client_id: 'a', client_secret: 'b', audience: 'x' };
    expect(paths(oauthTokenRequestSchema.safeParse({ ...client, grant_type: 'implicit' }))).toEqual(['grant_type']);
    expect(paths(oauthTokenRequestSchema.safeParse({ ...client, grant_type: 'password' }))).toEqual([
      'username',
      'password',
      'scope',
    ]);
    expect(
      oauthTokenRequestSchema.safeParse({
        ...client,
        grant_type: 'password',
        username: 'u',
        password: 'p',
        scope: 'openid',
      }).success,
    ).toBe(true);
    expect(oauthTokenRequestSchema.safeParse({ ...client, grant_type: 'client_credentials' }).success).toBe(true);
  });

  it('token response: Bearer, positive integer expires_in; token errors carry error', () => {
    expect(tokenResponseSchema.safeParse({ access_token: 'x', token_type: 'Bearer', expires_in: 3600 }).success).toBe(
      true,
    );
    expect(paths(tokenResponseSchema.safeParse({ access_token: 'x', token_type: 'MAC', expires_in: 1.5 }))).toEqual([
      'token_type',
      'expires_in',
    ]);
    expect(paths(tokenErrorSchema.safeParse({ error_description: 'x' }))).toEqual(['error']);
  });
});
