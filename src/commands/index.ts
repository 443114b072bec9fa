import type { CommandEntry } from './types.js';

/**
 * Every command, with its module loaded on demand: `serve` and `worker` never load the emulator,
 * the demo or the other commands' code, which keeps their start short.
 */
export const commands: CommandEntry[] = [
  {
    name: 'start',
    summary: 'run the emulator and the service wired together (npm start)',
    load: async () => (await import('./start.js')).startCommand,
  },
  {
    name: 'demo',
    summary: 'run the demo scenario against `wms-sync start` (or --embedded)',
    load: async () => (await import('./demo.js')).demoCommand,
  },
  {
    name: 'serve',
    summary: 'run the HTTP API and the job worker',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  { name: 'worker', summary: 'run the job worker only', load: async () => (await import('./worker.js')).workerCommand },
  {
    name: 'emulator',
    summary: 'run the WMS emulator alone, or trigger its warehouse actions',
    load: async () => (await import('./emulator.js')).emulatorCommand,
  },
  {
    name: 'migrate',
    summary: 'apply database migrations',
    load: async () => (await import('./migrate.js')).migrateCommand,
  },
  {
    name: 'push',
    summary: 'bulk-load products, delivery points or documents into the WMS',
    load: async () => (await import('./push.js')).pushCommand,
  },
  {
    name: 'pushes',
    summary: 'retry failed pushes, or show a record and its sync state',
    load: async () => (await import('./pushes.js')).pushesCommand,
  },
  {
    name: 'replay',
    summary: 'post webhook payloads to a receiver, or process stored events again',
    load: async () => (await import('./replay.js')).replayCommand,
  },
  {
    name: 'events',
    summary: 'list, show, edit and retry inbound webhook events',
    load: async () => (await import('./events.js')).eventsCommand,
  },
  {
    name: 'deliveries',
    summary: 'list, show and resend deliveries of the feed to the ERP webhook',
    load: async () => (await import('./deliveries.js')).deliveriesCommand,
  },
  {
    name: 'reconcile',
    summary: 'run a stock reconciliation now',
    load: async () => (await import('./reconcile.js')).reconcileCommand,
  },
  {
    name: 'prune',
    summary: 'remove data older than its retention (--dry-run counts)',
    load: async () => (await import('./prune.js')).pruneCommand,
  },
  {
    name: 'connections',
    summary: 'connection tools: `secret` prints a new ERP webhook signing secret',
    load: async () => (await import('./connections.js')).connectionsCommand,
  },
];
