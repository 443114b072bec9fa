import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import type { AppEnv } from '../../lib/http.js';

export type AdminApp = OpenAPIHono<AppEnv>;
export const ADMIN_SECURITY = [{ adminBearer: [] }];
export const ADMIN_PREFIX = '/admin/v1';

/** Registers one admin route (one file each) on the admin app. */
export type AdminRouteRegistrar = (app: AdminApp, deps: ServiceDeps) => void;
