import { z } from 'zod';
import {
  type Criteria,
  type CriteriaFields,
  commonResultSchema,
  DEFAULT_PAGE_SIZE,
  DELIVERY_POINT_CRITERIA_FIELDS,
  type DeliveryPointCriteria,
  type DeliveryPointInput,
  DOCUMENT_CRITERIA_FIELDS,
  type DocumentCancel,
  type DocumentCriteria,
  type DocumentInput,
  deliveryPointSchema,
  documentSchema,
  encodeCriteriaQuery,
  type Pageable,
  PRODUCT_CRITERIA_FIELDS,
  type ProductCriteria,
  type ProductInput,
  packingResponseSchema,
  productExternalCodesResponseSchema,
  productSchema,
  receptionDifferencesSchema,
  resultSchema,
  type StockRequest,
  type StorageSystemLine,
  stockResponseSchema,
  type WmsPathName,
} from '../wms/index.js';
import { hasNextPage, iteratePages, type Page, parseLinkHeader, parseTotalCount } from './page.js';
import type { Transport } from './transport.js';

/**
 * The WMS's 21 operations (spec, Endpoints), typed with the `src/wms/` schemas: requests are the
 * spec's DTOs, answers are parsed with the same schemas, list answers become a `Page`.
 * Endpoint 21 (the token) lives in the token manager.
 */
export function wmsOperations(transport: Transport, baseUrl: string) {
  async function list<S extends z.ZodType, F extends CriteriaFields>(
    name: string,
    path: WmsPathName,
    fields: F,
    item: S,
    criteria: Criteria<F>,
    pageable: Pageable,
  ): Promise<Page<z.output<S>>> {
    const page = pageable.page ?? 0;
    const size = pageable.size ?? DEFAULT_PAGE_SIZE;
    const searchParams = encodeCriteriaQuery(fields, criteria, { ...pageable, page, size });
    const res = await transport.call({ name, method: 'GET', path, searchParams, schema: z.array(item) });
    const base = `${baseUrl}/`;
    const p = {
      items: res.data,
      total: parseTotalCount(res.headers.get('x-total-count')),
      page,
      size,
      links: parseLinkHeader(res.headers.get('link'), base),
    };
    return { ...p, hasNext: hasNextPage(p) };
  }
  const data = async <T>(promise: Promise<{ data: T }>): Promise<T> => (await promise).data;

  const products = {
    /** 1 */ list: (criteria: ProductCriteria = {}, pageable: Pageable = {}) =>
      list('listProducts', 'product', PRODUCT_CRITERIA_FIELDS, productSchema, criteria, pageable),
    iterate: (criteria: ProductCriteria = {}, pageable: Pageable = {}) =>
      iteratePages((p) => products.list(criteria, p), pageable),
    /** 2 */ create: (product: ProductInput) =>
      data(
        transport.call({
          name: 'createProduct',
          method: 'POST',
          path: 'product',
          json: product,
          schema: productSchema,
        }),
      ),
    /** 3 */ update: (product: ProductInput) =>
      data(
        transport.call({ name: 'updateProduct', method: 'PUT', path: 'product', json: product, schema: productSchema }),
      ),
    /** 4 */ get: (externalCode: string) =>
      data(
        transport.call({
          name: 'getProduct',
          method: 'GET',
          path: 'productByExternalCode',
          params: { externalCode },
          schema: productSchema,
        }),
      ),
    /** 5: the body is the observations as one JSON string; the answer is a boolean. */
    updateObservations: (externalCode: string, observations: string) =>
      data(
        transport.call({
          name: 'updateProductObservations',
          method: 'POST',
          path: 'productUpdateObservations',
          params: { externalCode },
          json: observations,
          schema: z.boolean(),
        }),
      ),
    /** 6 */ allExternalCodes: () =>
      data(
        transport.call({
          name: 'productAllExternalCodes',
          method: 'GET',
          path: 'productAllExternalCodes',
          schema: productExternalCodesResponseSchema,
        }),
      ),
    /** 7 */ stock: (request: StockRequest) =>
      data(
        transport.call({
          name: 'productStock',
          method: 'POST',
          path: 'productStock',
          json: request,
          schema: stockResponseSchema,
        }),
      ),
  };

  const documents = {
    /** 8 */ list: (criteria: DocumentCriteria = {}, pageable: Pageable = {}) =>
      list('listDocuments', 'document', DOCUMENT_CRITERIA_FIELDS, documentSchema, criteria, pageable),
    iterate: (criteria: DocumentCriteria = {}, pageable: Pageable = {}) =>
      iteratePages((p) => documents.list(criteria, p), pageable),
    /** 9: `externalCode` is the idempotency key, so repeating a create is safe. */
    create: (document: DocumentInput) =>
      data(
        transport.call({
          name: 'createDocument',
          method: 'POST',
          path: 'document',
          json: document,
          schema: documentSchema,
        }),
      ),
    /** 10 */ update: (document: DocumentInput) =>
      data(
        transport.call({
          name: 'updateDocument',
          method: 'PUT',
          path: 'document',
          json: document,
          schema: documentSchema,
        }),
      ),
    /** 11 */ get: (externalCode: string) =>
      data(
        transport.call({
          name: 'getDocument',
          method: 'GET',
          path: 'documentByExternalCode',
          params: { externalCode },
          schema: documentSchema,
        }),
      ),
    /** 12 */ cancel: (cancel: DocumentCancel) =>
      data(
        transport.call({
          name: 'cancelDocument',
          method: 'POST',
          path: 'documentCancel',
          json: cancel,
          schema: resultSchema,
        }),
      ),
  };

  const deliveryPoints = {
    /** 13 */ list: (criteria: DeliveryPointCriteria = {}, pageable: Pageable = {}) =>
      list(
        'listDeliveryPoints',
        'deliveryPoint',
        DELIVERY_POINT_CRITERIA_FIELDS,
        deliveryPointSchema,
        criteria,
        pageable,
      ),
    iterate: (criteria: DeliveryPointCriteria = {}, pageable: Pageable = {}) =>
      iteratePages((p) => deliveryPoints.list(criteria, p), pageable),
    /** 14 */ create: (point: DeliveryPointInput) =>
      data(
        transport.call({
          name: 'createDeliveryPoint',
          method: 'POST',
          path: 'deliveryPoint',
          json: point,
          schema: deliveryPointSchema,
        }),
      ),
    /** 15 */ update: (point: DeliveryPointInput) =>
      data(
        transport.call({
          name: 'updateDeliveryPoint',
          method: 'PUT',
          path: 'deliveryPoint',
          json: point,
          schema: deliveryPointSchema,
        }),
      ),
    /** 16 */ get: (externalCode: string) =>
      data(
        transport.call({
          name: 'getDeliveryPoint',
          method: 'GET',
          path: 'deliveryPointByExternalCode',
          params: { externalCode },
          schema: deliveryPointSchema,
        }),
      ),
  };

  const warehouse = {
    /** 17 */ receptionDifferences: (receptionCode: string) =>
      data(
        transport.call({
          name: 'receptionDifferences',
          method: 'GET',
          path: 'receptionDifferences',
          params: { receptionCode },
          schema: receptionDifferencesSchema,
        }),
      ),
    /** 18: a JSON array of packings (the emulator's answer), or one object (the spec's table); always an array here. */
    packingByExternalCode: (query: { warehouse: string; externalCode: string }) =>
      data(
        transport.call({
          name: 'packingByExternalCode',
          method: 'GET',
          path: 'packingByExternalCode',
          searchParams: new URLSearchParams(query),
          schema: packingResponseSchema,
        }),
      ),
    /** 19: as 18. */
    packingByDocumentCode: (query: { warehouse: string; documentCode: string }) =>
      data(
        transport.call({
          name: 'packingByDocumentCode',
          method: 'GET',
          path: 'packingByDocumentCode',
          searchParams: new URLSearchParams(query),
          schema: packingResponseSchema,
        }),
      ),
    /** 20: OAuth2 (option B) tokens only, as the spec says. */
    storageSystemDispatched: (lines: StorageSystemLine[]) =>
      data(
        transport.call({
          name: 'storageSystemDispatched',
          method: 'POST',
          path: 'storageSystemDispatched',
          json: lines,
          schema: commonResultSchema,
        }),
      ),
  };

  return { products, documents, deliveryPoints, warehouse };
}

export type WmsOperations = ReturnType<typeof wmsOperations>;
