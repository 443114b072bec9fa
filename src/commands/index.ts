import { eventsCommand } from './events.js';
import { migrateCommand } from './migrate.js';
import { notYetAvailable } from './not-yet.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { startCommand } from './start.js';
import type { Command } from './types.js';
import { workerCommand } from './worker.js';

export const commands: Command[] = [
  startCommand,
  serveCommand,
  workerCommand,
  notYetAvailable('emulator', 'run the WMS emulator alone', 'Usage: wms-sync emulator [--port 8090] [--data FILE] [--seed demo]'),
  migrateCommand,
  replayCommand,
  eventsCommand,
  notYetAvailable('reconcile', 'run a stock reconciliation now', 'Usage: wms-sync reconcile [--connection NAME]'),
];
