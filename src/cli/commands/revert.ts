import { BatonError } from '../../core/errors.js';
import { intFlag, parseArgs, writerFrom } from '../args.js';
import type { Cli } from '../context.js';
import { openForCli, printNotes } from '../open.js';

const USAGE = 'baton revert FILE --rev N [--as WRITER]';

export default async function revert(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags } = parseArgs(args, { positionals: [1, 1], strings: ['rev', 'as'], usage: USAGE });
  const rev = intFlag(flags.rev, 'rev');
  if (rev === undefined) throw new BatonError('usage', `--rev N is required; usage: ${USAGE}`);
  const result = await openForCli(positionals[0] as string, cli, writerFrom(flags.as, cli.env)).revert(rev);
  printNotes(cli, result.notes);
  cli.err(`baton revert: restored revision ${rev} as revision ${result.rev}\n`);
  return 0;
}
