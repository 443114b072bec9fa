import { systemClock, type Clock } from '../lib/clock.js';
import { silentLogger, type Logger } from '../lib/logger.js';
import { createEmulatorApp } from './app.js';
import type { EmulatorContext } from './context.js';
import { openEmulatorDatabase } from './db/open.js';
import { statementCache } from './db/statements.js';
import type { EmulatorApp, EmulatorServices } from './http/env.js';
import { seedDemo } from './seed/demo.js';
import { resetAll } from './tenants/reset.js';
import { resolveSigningKey } from './tokens/signing-key.js';

export interface EmulatorOptions {
  clock?: Clock;
  logger?: Logger;
  /** A SQLite file: state survives a restart. In memory when absent. */
  dataFile?: string;
  /** Key material for the HS256 tokens; generated (and kept in the data file) when absent. */
  signingKey?: string;
  /** Behave as a WMS whose token service has no signing key: endpoint 21 answers 503. */
  tokenServiceDisabled?: boolean;
  /** When set, the control API requires it as a Bearer; otherwise it is open on loopback only. */
  adminToken?: string;
  seed?: 'demo';
  demoClient?: { clientId: string; clientSecret: string };
  bodyLimitBytes?: number;
}

export interface EmulatorState extends EmulatorServices {
  /** Back to the start state: every tenant removed, the seed applied again. */
  resetAll(): void;
}

export interface Emulator {
  app: EmulatorApp;
  state: EmulatorState;
  close(): void;
}

export const DEFAULT_DEMO_CLIENT = { clientId: 'demo-client', clientSecret: 'demo-secret' };

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const db = openEmulatorDatabase(options.dataFile);
  const ctx: EmulatorContext = {
    db,
    sql: statementCache(db),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger(),
  };
  const seed = () => {
    if (options.seed === 'demo') seedDemo(ctx, options.demoClient ?? DEFAULT_DEMO_CLIENT);
  };
  const state: EmulatorState = {
    ctx,
    tokens: { key: resolveSigningKey(ctx, options.signingKey), apiClientTokensDisabled: options.tokenServiceDisabled ?? false },
    adminToken: options.adminToken,
    resetAll: () => {
      resetAll(ctx);
      seed();
    },
  };
  seed();
  const app = createEmulatorApp(state, {
    logger: ctx.logger,
    resetAll: state.resetAll,
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
  });
  return { app, state, close: () => db.close() };
}
