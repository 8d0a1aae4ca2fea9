import { parseCommand, writerFrom } from '../args.js';
import { clearDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

export default async function clear(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(clearDefinition(), args);
  await openForCli(positionals[0] as string, cli, writerFrom(flags.as, cli.env)).clear();
  return 0;
}
