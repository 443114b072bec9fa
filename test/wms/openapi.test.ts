import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as wms from '../../src/wms/index.js';

// The emulator renders its OpenAPI document from these schemas through @hono/zod-openapi, which
// reads zod 4 `.meta({ id })`; this checks every schema with an id renders as a named component.
describe('wms schemas render as OpenAPI 3.1 components', () => {
  const schemas = Object.entries(wms)
    .filter(
      ([name, value]) => name.endsWith('Schema') && typeof value === 'object' && value !== null && 'meta' in value,
    )
    .map(([, value]) => value as z.ZodType)
    .filter((schema) => (schema.meta() as { id?: string } | undefined)?.id);
  const app = new OpenAPIHono();
  for (const schema of schemas) app.openAPIRegistry.register((schema.meta() as { id: string }).id, schema);
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
  const components = doc.components?.schemas ?? {};

  it('names components after the spec DTOs', () => {
    for (const id of [
      'RestAPIProductDTO',
      'RestAPIDocumentDTO',
      'RestAPIDeliveryPointDTO',
      'RestAPIBadRequestExceptionObject',
      'BadRequestAlertException',
      'ProductCriteria',
      'StringFilter',
      'TokenResponse',
      'CloseShippingOrderWebhook',
    ]) {
      expect(components, id).toHaveProperty(id);
    }
  });

  it('keeps required members, unique items and references', () => {
    const product = components.RestAPIProductDTO as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(product.required).toEqual(['externalCode', 'description']);
    expect(JSON.stringify(product.properties.barcodes)).toContain('"uniqueItems":true');
    expect(JSON.stringify(product.properties.barcodes)).toContain('#/components/schemas/RestAPIBarcodeDTO');
  });
});
