import { parseJsonArg, type Json } from '../../core/json.js';
import { parseArgs, writerFrom } from '../args.js';
import type { Cli } from '../context.js';
import { openForCli, printNotes } from '../open.js';

const USAGE = 'baton append FILE PATH VALUE [--json] [--as WRITER]';

export default async function append(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags } = parseArgs(args, { positionals: [3, 3], strings: ['as'], booleans: { json: [] }, usage: USAGE });
  const [file, path, text] = positionals as [string, string, string];
  const value: Json = flags.json ? parseJsonArg(text, 'VALUE') : text;
  const result = await openForCli(file, cli, writerFrom(flags.as, cli.env)).append(path, value);
  printNotes(cli, result.notes);
  return 0;
}
