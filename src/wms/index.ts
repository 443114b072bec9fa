/**
 * The WMS wire format (../shared/spec/warehouse-external-api.md): zod schemas for every DTO, enum,
 * criteria filter, error body, token exchange and webhook payload, plus the spec's constants.
 * The emulator serves it, the client parses with it, the receiver validates with it.
 */
export * from './auth.js';
export * from './criteria.js';
export * from './criteria-query.js';
export * from './datetime.js';
export * from './delivery-point.js';
export * from './document.js';
export * from './errors.js';
export * from './packing.js';
export * from './paths.js';
export * from './product.js';
export * from './reception.js';
export * from './scalars.js';
export * from './stock.js';
export * from './storage-system.js';
export * from './webhooks.js';
export * from './webhooks-tolerant.js';
