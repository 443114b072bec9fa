import type { OpenAPIHono } from '@hono/zod-openapi';
import { ERP_SECURITY, type ErpEnv } from '../../lib/erp-auth.js';
import type { IntakeDeps } from '../intake.js';

export type ErpApp = OpenAPIHono<ErpEnv>;
export const SECURITY = ERP_SECURITY;

/** Registers one route (or one per intake kind) on the ERP API app. */
export type RouteRegistrar = (app: ErpApp, deps: IntakeDeps) => void;
