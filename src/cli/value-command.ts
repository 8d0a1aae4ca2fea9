import { parseJsonArg, type Json } from '../core/json.js';
import { parseCommand, writerFrom } from './args.js';
import type { appendDefinition, setDefinition } from './definitions.js';
import type { Command } from './process-io.js';
import type { CommandIo } from '../core/command-io.js';
import { openForCli, printNotes } from './open-for-cli.js';

/**
 * `baton set|append FILE PATH VALUE [--json]`: the jq-free writes, one shape for both. Each passes
 * its own definition, so its bundle carries no other command's (scripts/cli-bundles.mjs).
 */
export function valueCommand(
  operation: 'set' | 'append',
  definition: typeof setDefinition | typeof appendDefinition,
): Command {
  return async (args: string[], cli: CommandIo): Promise<number> => {
    const { positionals, flags } = parseCommand(definition(), args);
    const [file, path, text] = positionals as [string, string, string];
    const value: Json = flags.json ? parseJsonArg(text, 'VALUE') : text;
    const result = await openForCli(file, cli, writerFrom(flags.as, cli.env))[operation](path, value, {
      typed: !flags.json,
    });
    printNotes(cli, result.notes);
    return 0;
  };
}
