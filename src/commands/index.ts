import { connectionsCommand } from './connections.js';
import { deliveriesCommand } from './deliveries.js';
import { demoCommand } from './demo.js';
import { emulatorCommand } from './emulator.js';
import { eventsCommand } from './events.js';
import { migrateCommand } from './migrate.js';
import { pruneCommand } from './prune.js';
import { pushCommand } from './push.js';
import { pushesCommand } from './pushes.js';
import { reconcileCommand } from './reconcile.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { startCommand } from './start.js';
import type { Command } from './types.js';
import { workerCommand } from './worker.js';

export const commands: Command[] = [
  startCommand,
  demoCommand,
  serveCommand,
  workerCommand,
  emulatorCommand,
  migrateCommand,
  pushCommand,
  pushesCommand,
  replayCommand,
  eventsCommand,
  deliveriesCommand,
  reconcileCommand,
  pruneCommand,
  connectionsCommand,
];
