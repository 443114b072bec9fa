import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../lib/config.js';
import type { CommandContext } from './types.js';

export class UsageError extends Error {}

/** node:util parseArgs, with unknown options reported as a usage error (exit 2). */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Reads the configuration, with command-line overrides applied as if they were env variables.
 * A bad value prints one line naming the variable and returns undefined (the caller exits 1).
 */
export function configFrom(
  ctx: CommandContext,
  overrides: Record<string, string | undefined> = {},
): Config | undefined {
  const env = { ...ctx.env };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) env[k] = v;
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      ctx.stderr.write(`wms-sync: ${err.message}\n`);
      return undefined;
    }
    throw err;
  }
}

/** Runs a command body, turning usage errors into exit 2 with the message and the help text. */
export async function withUsage(ctx: CommandContext, help: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`wms-sync: ${err.message}\n\n${help.trimEnd()}\n`);
      return 2;
    }
    throw err;
  }
}
