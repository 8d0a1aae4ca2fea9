import { parseCommand, writerFrom } from '../args.js';
import { updateDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { jqBudgetFrom, openForCli, printNotes } from '../open-for-cli.js';

export default async function update(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags, vars } = parseCommand(updateDefinition(), args);
  const [file, expr] = positionals as [string, string];
  const writer = writerFrom(flags.as, cli.env);
  const result = await openForCli(file, cli, writer, jqBudgetFrom(flags)).update(expr, vars, {
    ifExists: flags['if-exists'] === true,
  });
  printNotes(cli, result.notes);
  return 0;
}
