import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { actorName, correctEvent } from '../inbound/correct-event.js';
import { effectivePayloadOf } from '../inbound/effects.js';
import { PathError, parseSetting, setPath } from '../inbound/json-path.js';
import type { Config } from '../lib/config.js';
import { parse, UsageError } from './args.js';
import { eventId, withServiceDeps } from './service-deps.js';
import type { CommandContext } from './types.js';

export const EDIT_HELP = {
  usage: '       wms-sync events edit ID [--set PATH=VALUE]... [--file FILE] [--actor NAME] [--dry-run]',
  text: `  edit    stores a corrected payload for a quarantined or failed event, beside the original
          (never over it), and queues its processing again. The correction starts from the
          current payload (the latest correction, else the body as received):
            --set PATH=VALUE  sets one member (repeatable): PATH as the problems name it
                              (lines[0].quantity); VALUE is read as JSON when it is JSON
                              (-12, null, true, "12" for the string 12), else as a plain string
            --file FILE       the whole corrected payload from a JSON file (--set applies on top)
            (neither)         opens the payload in $VISUAL or $EDITOR
          It is checked exactly as a received webhook is: problems are printed, nothing is stored.
          --actor NAME names who made the change (default cli:<user>); --dry-run only checks.`,
};

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** Opens the payload in the user's editor and returns what they saved. */
function viaEditor(editor: string, payload: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'wms-sync-edit-'));
  const file = join(dir, 'payload.json');
  try {
    writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
    // Through the shell, so EDITOR may carry arguments ("code --wait").
    const result = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`the editor (${editor}) exited with ${result.status ?? result.signal}; nothing stored`);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`);
  }
}

/** `wms-sync events edit ID …`; returns the exit code. */
export async function editEvent(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { positionals, values } = parse(
    args,
    {
      set: { type: 'string', multiple: true },
      file: { type: 'string' },
      actor: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError('events edit takes one event id');
  const id = eventId(positionals[0]!);
  let settings;
  try {
    settings = (values.set ?? []).map(parseSetting);
  } catch (err) {
    if (err instanceof PathError) throw new UsageError(err.message);
    throw err;
  }
  const editor = ctx.env.VISUAL || ctx.env.EDITOR;
  if (settings.length === 0 && !values.file && !editor) throw new UsageError('give --set or --file, or set $EDITOR');
  const actor = actorName(values.actor ?? `cli:${currentUser()}`, 'cli');

  return withServiceDeps(config, async (deps) => {
    const event = await deps.store.inbox.get(id);
    if (!event) {
      ctx.stderr.write(`event ${id}: no such event\n`);
      return 1;
    }
    let payload: unknown = values.file
      ? parseJson(readFileSync(values.file, 'utf8'), values.file)
      : settings.length > 0
        ? parseJson(effectivePayloadOf(event), `the stored payload of event ${id}`)
        : parseJson(
            viaEditor(editor!, parseJson(effectivePayloadOf(event), `the stored payload of event ${id}`)),
            'the edited payload',
          );
    try {
      for (const s of settings) payload = setPath(payload, s.path, s.value);
    } catch (err) {
      if (err instanceof PathError) throw new UsageError(`--set: ${err.message}`);
      throw err;
    }
    const result = await correctEvent(deps, { id, payload, actor, dryRun: values['dry-run'] ?? false });
    if (!result.ok) {
      if (result.reason === 'not_found') ctx.stderr.write(`event ${id}: no such event\n`);
      else if (result.reason === 'not_editable')
        ctx.stderr.write(`event ${id} is ${result.status}: only quarantined and failed events can be corrected\n`);
      else {
        ctx.stderr.write(`event ${id}: the correction has problems; nothing stored\n`);
        for (const p of result.problems) ctx.stderr.write(`  ${p.path}: ${p.message}\n`);
      }
      return 1;
    }
    ctx.stdout.write(
      result.stored
        ? `event ${id}: correction #${result.edit!.id} stored by ${actor}; queued for processing again\n`
        : `event ${id}: the correction is valid (dry run: nothing stored)\n`,
    );
    for (const c of result.changes)
      ctx.stdout.write(
        `  ${c.path}: ${JSON.stringify(c.before) ?? '(absent)'} → ${JSON.stringify(c.after) ?? '(absent)'}\n`,
      );
    return 0;
  });
}
