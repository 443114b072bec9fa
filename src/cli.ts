import { commands } from './commands/index.js';
import type { CommandContext } from './commands/types.js';

const USAGE = (names: string) => `wms-sync: connects an ERP to a warehouse management service

Usage: wms-sync <command> [options]

Commands:
${names}

Run \`wms-sync <command> --help\` for a command's options.
`;

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export async function main(argv: string[], ctx?: Partial<CommandContext>): Promise<number> {
  const context: CommandContext = {
    env: ctx?.env ?? process.env,
    stdout: ctx?.stdout ?? process.stdout,
    stderr: ctx?.stderr ?? process.stderr,
    stopSignal: ctx?.stopSignal ?? stopSignal(),
  };
  const list = commands.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`).join('\n');
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    context.stdout.write(USAGE(list));
    return name ? 0 : 2;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    context.stderr.write(`wms-sync: unknown command "${name}"\n\n${USAGE(list)}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    context.stdout.write(`${command.help.trimEnd()}\n`);
    return 0;
  }
  try {
    return await command.run(rest, context);
  } catch (err) {
    // Expected failures (database unreachable, file missing) end with one line, not a stack trace.
    context.stderr.write(`wms-sync ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
