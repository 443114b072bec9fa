/**
 * `--quick` for every bench (`npm run bench -- --quick` runs them all in a few minutes): call it
 * before `parseArgs`. It takes `--quick` out of the arguments and adds each of the bench's quick
 * knobs that was not given on the command line, so the bench's own parsing and defaults stay as
 * they are. Returns whether the run is quick (for the results).
 */
export function quick(knobs: Record<string, string | true>, argv: string[] = process.argv): boolean {
  const at = argv.indexOf('--quick');
  if (at < 0) return false;
  argv.splice(at, 1);
  for (const [name, value] of Object.entries(knobs)) {
    if (argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`))) continue;
    argv.push(...(value === true ? [`--${name}`] : [`--${name}`, value]));
  }
  return true;
}
