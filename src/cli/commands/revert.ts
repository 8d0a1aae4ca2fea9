import { intFlag, parseCommand, usageError, writerFrom } from '../args.js';
import { revertDefinition, usageLine } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli, printNotes } from '../open-for-cli.js';

export default async function revert(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(revertDefinition(), args);
  const rev = intFlag(flags.rev, 'rev');
  if (rev === undefined) throw usageError('--rev N is required', usageLine(revertDefinition()));
  const result = await openForCli(positionals[0] as string, cli, writerFrom(flags.as, cli.env)).revert(rev);
  printNotes(cli, result.notes);
  cli.err(`baton revert: restored revision ${rev} as revision ${result.rev}\n`);
  return 0;
}
