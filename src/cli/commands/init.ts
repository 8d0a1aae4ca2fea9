import { parseArgs, writerFrom } from '../args.js';
import type { Cli } from '../context.js';
import { openForCli, printNotes } from '../open.js';
import type { JsonObject } from '../../core/json.js';

const USAGE = 'baton init FILE [--schema NAME|PATH] [--arg N V]... [--argjson N J]... [--as WRITER] [--force]';

export default async function init(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags, vars } = parseArgs(args, { positionals: [1, 1], vars: true, strings: ['schema', 'as'], booleans: { force: [] }, usage: USAGE });
  const writer = writerFrom(flags.as, cli.env);
  const doc = openForCli(positionals[0] as string, cli, writer);
  const result = await doc.init(vars as JsonObject, {
    force: flags.force === true,
    ...(typeof flags.schema === 'string' ? { schema: flags.schema } : {}),
  });
  printNotes(cli, result.notes);
  return 0;
}
