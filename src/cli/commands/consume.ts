import { formatJqRaw } from '../../core/jq/jq.js';
import { parseCommand, writerFrom } from '../args.js';
import { COMMANDS } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

/** Prints the value (strings raw, `null` when unset, as `get` does) and clears it to null, in one locked step. */
export default async function consume(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(COMMANDS.consume, args);
  const [file, path] = positionals as [string, string];
  const value = await openForCli(file, cli, writerFrom(flags.as, cli.env)).consume(path);
  cli.out(`${formatJqRaw(value)}\n`);
  return 0;
}
