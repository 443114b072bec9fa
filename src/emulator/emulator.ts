import { EventEmitter } from 'node:events';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Logger, silentLogger } from '../lib/logger.js';
import { createEmulatorApp } from './app.js';
import { CapacityRegistry } from './capacity/registry.js';
import type { EmulatorContext } from './context.js';
import { openEmulatorDatabase } from './db/open.js';
import { statementCache } from './db/statements.js';
import type { EmulatorEventMap, EmulatorEvents } from './events.js';
import { FaultRegistry } from './faults/registry.js';
import type { EmulatorApp, EmulatorServices } from './http/env.js';
import { seedDemo } from './seed/demo.js';
import { readSnapshot, snapshotDir, writeSnapshot } from './snapshot/snapshot.js';
import { resetAll } from './tenants/reset.js';
import { resolveSigningKey } from './tokens/signing-key.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

export interface EmulatorOptions {
  clock?: Clock;
  logger?: Logger;
  /** A SQLite file: state survives a restart. In memory when absent. */
  dataFile?: string;
  /**
   * The emulator's data directory: snapshots go to its `snapshots` folder. Defaults to the data
   * file's directory; without either, snapshots are unavailable.
   */
  dataDir?: string;
  /** Finished webhooks each tenant's webhook log keeps (default 10,000). */
  webhookLogMax?: number;
  /** Key material for the HS256 tokens; generated (and kept in the data file) when absent. */
  signingKey?: string;
  /** Behave as a WMS whose token service has no signing key: endpoint 21 answers 503. */
  tokenServiceDisabled?: boolean;
  /** When set, the control API requires it as a Bearer; otherwise it is open on loopback only. */
  adminToken?: string;
  seed?: 'demo';
  demoClient?: { clientId: string; clientSecret: string };
  bodyLimitBytes?: number;
  /** Random source of fault injection's `rate` (tests pass a deterministic one). */
  random?: () => number;
  /** How the capacity model's latency waits (tests pass one they resolve themselves). */
  sleep?: (ms: number) => Promise<void>;
}

export interface EmulatorState extends EmulatorServices {
  /** Back to the start state: every tenant removed, faults and capacity models cleared, the seed applied again. */
  resetAll(): void;
  /** `webhook` (a webhook request finished), `idle` (a tenant has nothing pending), `queued`. */
  events: EmulatorEvents;
  /** The whole state to a named snapshot (a SQLite image in the data directory's snapshots folder). */
  snapshot(name: string): { name: string; bytes: number };
  /** The whole state from a named snapshot; pending webhooks in it are sent. */
  restore(name: string): { name: string; tenants: string[] };
}

export interface Emulator {
  app: EmulatorApp;
  state: EmulatorState;
  close(): void;
}

export const DEFAULT_DEMO_CLIENT = { clientId: 'demo-client', clientSecret: 'demo-secret' };

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const db = openEmulatorDatabase(options.dataFile);
  const events: EmulatorEvents = new EventEmitter<EmulatorEventMap>();
  // Tests and end-to-end runs may wait on many webhooks at once.
  events.setMaxListeners(0);
  const ctx: EmulatorContext = {
    db,
    sql: statementCache(db),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger(),
    events,
  };
  const seed = () => {
    if (options.seed === 'demo') seedDemo(ctx, options.demoClient ?? DEFAULT_DEMO_CLIENT);
  };
  const faults = new FaultRegistry(options.random);
  // The latency's sleep and the timing of the work share one timeline: real time, or a test's sleep with the emulator's clock.
  const elapsed = options.sleep ? () => ctx.clock.nowMs() : () => performance.now();
  const capacity = new CapacityRegistry(ctx.clock, options.sleep ?? ((ms) => sleep(ms)), elapsed);
  const webhooks = new WebhookDispatcher(ctx, faults, options.webhookLogMax);
  const dataDir = options.dataDir ?? (options.dataFile ? dirname(options.dataFile) : undefined);
  const snapshots = dataDir ? snapshotDir(dataDir) : undefined;
  const state: EmulatorState = {
    ctx,
    events,
    tokens: {
      key: resolveSigningKey(ctx, options.signingKey),
      apiClientTokensDisabled: options.tokenServiceDisabled ?? false,
    },
    adminToken: options.adminToken,
    webhooks,
    faults,
    capacity,
    resetAll: () => {
      webhooks.reset();
      faults.clear();
      capacity.clear();
      resetAll(ctx);
      seed();
    },
    snapshot: (name) => writeSnapshot(ctx, snapshots, name),
    restore: (name) => {
      const restored = readSnapshot(ctx, snapshots, name);
      webhooks.reset();
      // The snapshot carries its own generated signing key: tokens it issued work again.
      state.tokens.key = resolveSigningKey(ctx, options.signingKey);
      webhooks.kick();
      return restored;
    },
  };
  seed();
  // Webhooks left pending in a data file by an earlier run are sent now.
  webhooks.kick();
  const app = createEmulatorApp(state, {
    logger: ctx.logger,
    resetAll: state.resetAll,
    files: { snapshot: state.snapshot, restore: state.restore },
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
  });
  return {
    app,
    state,
    close: () => {
      webhooks.reset();
      db.close();
    },
  };
}
