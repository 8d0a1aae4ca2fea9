import { parseCommand, writerFrom } from '../args.js';
import { COMMANDS } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

export default async function clear(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(COMMANDS.clear, args);
  await openForCli(positionals[0] as string, cli, writerFrom(flags.as, cli.env)).clear();
  return 0;
}
