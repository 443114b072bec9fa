import { createLogger } from '../lib/logger.js';
import { openDeps } from '../main.js';
import { KINDS } from '../push/entities.js';
import { recordView } from '../push/record-view.js';
import { retryFailed, retryRecord } from '../push/retry.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { intakeKindArg, pickConnection } from './connection-arg.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync pushes retry <products|delivery-points|documents> CODE... [--connection NAME]
       wms-sync pushes retry --failed [--kind products|delivery-points|documents] [--connection NAME]
       wms-sync pushes show <products|delivery-points|documents> CODE [--connection NAME]

retry   puts records back in line after the cause was fixed (in the WMS, or a record they use):
        failed ones go back to pending, waiting ones are looked at again now. A running worker
        (serve, worker, start) pushes them. A document's failed cancel is retried with it.
show    prints a record as wms-sync holds it, with its sync state, as JSON.

Options:
  --connection NAME   the connection (default: the only one configured)
  --failed            every failed record (of --kind, or of every kind)
  --kind KIND         with --failed: only this kind`;

export const pushesCommand: Command = {
  name: 'pushes',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values, positionals } = parse(
        args,
        { connection: { type: 'string' }, failed: { type: 'boolean' }, kind: { type: 'string' } },
        true,
      );
      const [action, ...rest] = positionals;
      if (action !== 'retry' && action !== 'show') throw new UsageError('expected an action: retry or show');
      if (values.failed && action !== 'retry') throw new UsageError('--failed goes with retry');
      if (values.failed && rest.length > 0) throw new UsageError('give either --failed or a kind and codes, not both');
      const kind = values.failed ? (values.kind ? intakeKindArg(values.kind) : undefined) : intakeKindArg(rest[0]);
      const codes = values.failed ? [] : rest.slice(1);
      if (!values.failed && codes.length === 0) throw new UsageError('expected at least one CODE (or --failed)');
      if (action === 'show' && codes.length !== 1) throw new UsageError('show takes one CODE');
      const config = configFrom(ctx);
      if (!config) return 1;
      const connection = pickConnection(config, values.connection).name;

      const deps = await openDeps(config, {
        logger: createLogger({ level: ctx.env.LOG_LEVEL ? config.logLevel : 'error' }),
      });
      const intake = { store: deps.store, queue: deps.queue, clock: deps.clock };
      try {
        if (action === 'show') {
          const record = await deps.store.pushes.get(connection, KINDS[kind!].entity, codes[0]!);
          if (!record) {
            ctx.stderr.write(`wms-sync sync: no ${KINDS[kind!].label} ${codes[0]} for connection ${connection}\n`);
            return 1;
          }
          ctx.stdout.write(
            `${JSON.stringify(recordView(record, await deps.store.pushes.waitsOf(record.id)), null, 2)}\n`,
          );
          return 0;
        }
        if (values.failed) {
          const retried = await retryFailed(intake, connection, kind ? KINDS[kind].entity : undefined);
          ctx.stdout.write(`${retried.length} failed record(s) queued again\n`);
          for (const r of retried.slice(0, 50)) ctx.stdout.write(`  ${r.entity} ${r.externalCode}\n`);
          return 0;
        }
        let missing = 0;
        for (const code of codes) {
          const entities =
            kind === 'documents' ? (['document', 'document-cancel'] as const) : ([KINDS[kind!].entity] as const);
          const outcomes = [];
          for (const entity of entities) outcomes.push(await retryRecord(intake, connection, entity, code));
          const main = outcomes[0]!;
          if (main.outcome === 'not-found') {
            missing += 1;
            ctx.stdout.write(`  ${code}: not found\n`);
          } else if (outcomes.some((o) => o.outcome === 'busy'))
            ctx.stdout.write(`  ${code}: being pushed right now, try again once it settles\n`);
          else if (outcomes.some((o) => o.outcome === 'queued')) ctx.stdout.write(`  ${code}: queued\n`);
          else ctx.stdout.write(`  ${code}: synced, nothing to retry\n`);
        }
        return missing > 0 ? 1 : 0;
      } finally {
        await deps.queue.stop({ graceMs: 0 });
        // Gives this process's share of a shared WMS limit back before the store goes.
        await deps.wms.close();
        await deps.store.close();
      }
    }),
};
