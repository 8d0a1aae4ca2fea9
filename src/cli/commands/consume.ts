import { formatJqRaw } from '../../core/jq/jq.js';
import { parseCommand, writerFrom } from '../args.js';
import { consumeDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

/** Prints the value (strings raw, `null` when unset, as `get` does) and clears it to null, in one locked step. */
export default async function consume(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(consumeDefinition(), args);
  const [file, path] = positionals as [string, string];
  const { answer } = cli;
  // Run by a server, whose answer is bounded: a value whose printed form would not fit is handed
  // back before it is taken (the CLI then consumes it in its own process), not taken and its answer
  // lost. Printed twice then, only there: a check of the length alone would hand back values that fit.
  const check =
    answer &&
    ((value: Parameters<typeof formatJqRaw>[0]) => {
      if (!answer.fits(`${formatJqRaw(value)}\n`)) answer.handBack();
    });
  const value = await openForCli(file, cli, writerFrom(flags.as, cli.env)).consume(path, check ? { check } : {});
  cli.out(`${formatJqRaw(value)}\n`);
  return 0;
}
