import { createClient } from '../clients/create.js';
import type { EmulatorContext, TenantContext } from '../context.js';
import { createDeliveryPoint } from '../delivery-points/write.js';
import { createProduct } from '../products/create.js';
import { createTenant } from '../tenants/create.js';
import { findTenant } from '../tenants/find.js';

export const DEMO_TENANT = 'demo';

export interface DemoSeedOptions {
  clientId: string;
  clientSecret: string;
}

/**
 * Tenant `demo` with one API client and a few products and delivery points. Does nothing when the
 * tenant exists already (a `--data` file seeded on an earlier start).
 */
export function seedDemo(ctx: EmulatorContext, options: DemoSeedOptions): void {
  if (findTenant(ctx, DEMO_TENANT)) return;
  ctx.db.transaction(() => {
    const tenant = createTenant(ctx, { id: DEMO_TENANT });
    createClient(ctx, DEMO_TENANT, {
      kind: 'api',
      name: 'Demo client',
      clientId: options.clientId,
      clientSecret: options.clientSecret,
    });
    const tctx: TenantContext = { ...ctx, tenant };
    createProduct(tctx, {
      externalCode: 'DEMO-001',
      description: 'Apple juice 1 L',
      handlingUnit: 'UN',
      weight: 1.05,
      barcodes: [{ code: '5601234000017', type: 'GTIN' }],
    });
    createProduct(tctx, {
      externalCode: 'DEMO-002',
      description: 'Paracetamol 500 mg, 20 tablets',
      code: 'PARA-500',
      handlingUnit: 'UN',
      withLots: true,
      withExpirationDate: true,
      lots: [{ code: 'L2401', active: true, expirationDate: '2027-01-31' }],
      barcodes: [
        { code: '5601234000024', type: 'GTIN' },
        { code: '1234567', type: 'CNP' },
      ],
    });
    createProduct(tctx, {
      externalCode: 'DEMO-003',
      description: 'Espresso machine',
      handlingUnit: 'UN',
      withSerialNumbers: true,
      weight: 7.5,
    });
    createProduct(tctx, { externalCode: 'DEMO-004', description: 'Flour', handlingUnit: 'KG' });
    createDeliveryPoint(tctx, {
      externalCode: 'SUP-001',
      active: true,
      name: 'Demo Supplier Ltd',
      types: ['SUPPLIER'],
      city: 'Porto',
      country: 'PT',
    });
    createDeliveryPoint(tctx, {
      externalCode: 'CLI-001',
      active: true,
      name: 'Demo Pharmacy',
      types: ['CLIENT'],
      city: 'Lisbon',
      country: 'PT',
      address: 'Rua Augusta 1',
      postalCode: '1100-048',
    });
  })();
}
