import { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import { type ErpEnv, erpAuth } from '../../lib/erp-auth.js';
import { validationFailed } from '../../lib/errors.js';
import { fieldIssues, issuesMessage } from '../../lib/zod-issues.js';
import { INTAKE_KINDS } from '../entities.js';
import { registerBatch } from './batch.js';
import { registerCancel } from './cancel.js';
import { registerGet } from './get.js';
import { registerPut } from './put.js';
import { registerRetry } from './retry.js';

/**
 * The ERP intake API under /erp/v1 (Bearer ERP token; the token names the connection). Mounted by
 * app.ts; its routes and schemas join the service's OpenAPI document.
 */
export function pushRoutes(deps: ServiceDeps): OpenAPIHono<ErpEnv> {
  const app = new OpenAPIHono<ErpEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(issuesMessage(result.error), fieldIssues(result.error));
    },
  });
  // Only this room's paths: other rooms' /erp/v1 routes (the feed entries feed) bring their own.
  const auth = erpAuth(deps.connections);
  for (const kind of INTAKE_KINDS) {
    app.use(`/erp/v1/${kind}/*`, auth);
    app.use(`/erp/v1/${kind}:batch`, auth);
  }
  // Batch before the per-code routes, so `products:batch` is never read as a code.
  for (const register of [registerBatch, registerPut, registerGet, registerCancel, registerRetry]) register(app, deps);
  return app;
}
