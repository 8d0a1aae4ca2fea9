import { parseCommand, writerFrom } from '../args.js';
import { initDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli, printNotes } from '../open-for-cli.js';

export default async function init(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags, vars } = parseCommand(initDefinition(), args);
  const writer = writerFrom(flags.as, cli.env);
  const doc = openForCli(positionals[0] as string, cli, writer);
  const result = await doc.init(vars, {
    force: flags.force === true,
    ...(flags.schema !== undefined ? { schema: flags.schema } : {}),
  });
  printNotes(cli, result.notes);
  return 0;
}
