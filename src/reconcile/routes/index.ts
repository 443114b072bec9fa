import { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import { type ErpEnv, erpAuth } from '../../lib/erp-auth.js';
import { validationFailed } from '../../lib/errors.js';
import { fieldIssues, issuesMessage } from '../../lib/zod-issues.js';
import { registerGet } from './get.js';
import { registerStart } from './start.js';

/** POST /erp/v1/reconciliations and GET /erp/v1/reconciliations/{id}, behind the ERP bearer token. */
export function reconcileRoutes(
  deps: Pick<ServiceDeps, 'store' | 'queue' | 'clock' | 'connections'>,
): OpenAPIHono<ErpEnv> {
  const app = new OpenAPIHono<ErpEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(issuesMessage(result.error), fieldIssues(result.error));
    },
  });
  const auth = erpAuth(deps.connections);
  app.use('/erp/v1/reconciliations', auth);
  app.use('/erp/v1/reconciliations/*', auth);
  registerStart(app, deps);
  registerGet(app, deps);
  return app;
}
