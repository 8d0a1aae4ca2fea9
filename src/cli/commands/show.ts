import { formatDocument } from '../../core/json.js';
import { intFlag, parseCommand, usageError } from '../args.js';
import { showDefinition, usageLine } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

export default async function show(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(showDefinition(), args);
  const rev = intFlag(flags.rev, 'rev');
  if (rev === undefined) throw usageError('--rev N is required', usageLine(showDefinition()));
  const { doc } = await openForCli(positionals[0] as string, cli).show(rev);
  if (doc === null) cli.err(`baton show: revision ${rev} deleted the document\n`);
  else cli.out(formatDocument(doc));
  return 0;
}
