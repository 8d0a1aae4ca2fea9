import { formatDocument } from '../../core/json.js';
import { BatonError } from '../../core/errors.js';
import { intFlag, parseArgs } from '../args.js';
import type { Cli } from '../context.js';
import { openForCli } from '../open.js';

const USAGE = 'baton show FILE --rev N';

export default async function show(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags } = parseArgs(args, { positionals: [1, 1], strings: ['rev'], usage: USAGE });
  const rev = intFlag(flags.rev, 'rev');
  if (rev === undefined) throw new BatonError('usage', `--rev N is required; usage: ${USAGE}`);
  const { doc } = await openForCli(positionals[0] as string, cli).show(rev);
  if (doc === null) cli.err(`baton show: revision ${rev} deleted the document\n`);
  else cli.out(formatDocument(doc));
  return 0;
}
