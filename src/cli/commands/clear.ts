import { parseArgs, writerFrom } from '../args.js';
import type { Cli } from '../context.js';
import { openForCli } from '../open.js';

const USAGE = 'baton clear FILE [--as WRITER]';

export default async function clear(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags } = parseArgs(args, { positionals: [1, 1], strings: ['as'], usage: USAGE });
  await openForCli(positionals[0] as string, cli, writerFrom(flags.as, cli.env)).clear();
  return 0;
}
