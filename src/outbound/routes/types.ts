import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErpEnv } from '../../lib/erp-auth.js';
import type { IntakeDeps } from '../intake.js';

export type ErpApp = OpenAPIHono<ErpEnv>;
export const SECURITY = [{ erpBearer: [] }];

/** Registers one route (or one per intake kind) on the ERP API app. */
export type RouteRegistrar = (app: ErpApp, deps: IntakeDeps) => void;
