import { parseArgs, writerFrom } from '../args.js';
import type { Cli } from '../context.js';
import { JQ_BUDGET_FLAGS, jqBudgetFrom, openForCli, printNotes } from '../open.js';

const USAGE = 'baton update FILE JQ [--arg N V]... [--argjson N J]... [--as WRITER] [--if-exists] [--jq-steps N] [--jq-timeout-ms MS]';

export default async function update(args: string[], cli: Cli): Promise<number> {
  const { positionals, flags, vars } = parseArgs(args, { positionals: [2, 2], vars: true, strings: ['as', ...JQ_BUDGET_FLAGS], booleans: { 'if-exists': [] }, usage: USAGE });
  const [file, expr] = positionals as [string, string];
  const writer = writerFrom(flags.as, cli.env);
  const result = await openForCli(file, cli, writer, jqBudgetFrom(flags)).update(expr, vars, { ifExists: flags['if-exists'] === true });
  printNotes(cli, result.notes);
  return 0;
}
