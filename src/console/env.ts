import type { Env } from 'hono';
import type { AuditVars } from '../admin/audit-trail.js';
import type { ServiceDeps } from '../deps.js';
import type { RequestVars } from '../lib/http.js';
import type { Session } from './auth/session.js';
import type { EmulatorLink } from './emulator/control.js';
import type { Flash } from './ui/layout.js';

export interface ConsoleEnv extends Env {
  /** `https`: served over https (lib/https.ts), so the console's cookies are Secure. */
  Variables: RequestVars & AuditVars & { session: Session; flash?: Flash; https: boolean };
}

/** What the console's pages use: the service's deps, and the emulator when under `wms-sync start`. */
export interface ConsoleDeps extends ServiceDeps {
  emulator: EmulatorLink | undefined;
}

export interface ConsoleOptions {
  /** The emulator the demo composition runs beside the service (never imported: reached over HTTP). */
  emulator?: EmulatorLink | undefined;
}
