/**
 * A safe read: state problems (a missing file, malformed JSON) print the default and exit 0, with a
 * one-line warning for malformed JSON. An expression that fails (it does not compile, or raises at
 * run time, as `error("x")`) exits non-zero as jq does (baton's code for jq errors, 2; jq's own is
 * 5): a script must not read the default as the document's answer.
 */
import { BatonError, isBatonError } from '../../core/errors.js';
import { formatJqCompact, formatJqRaw } from '../../core/jq/format.js';
import type { Json } from '../../core/json.js';
import { parseCommand } from '../args.js';
import { getDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { jqBudgetFrom, openForCli } from '../open-for-cli.js';

export default async function get(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags, vars } = parseCommand(getDefinition(), args);
  const [file, expr = '.'] = positionals as [string, string?];
  const fallback = flags.default;
  const format = flags.raw ? formatJqRaw : formatJqCompact;
  let results: Json[];
  try {
    results = await openForCli(file, cli, undefined, jqBudgetFrom(flags)).get(expr, vars);
  } catch (error) {
    if (isBatonError(error, 'jq_runtime'))
      throw new BatonError('jq_runtime', `${error.message}; look at the values with 'baton get ${file}'`);
    if (!isBatonError(error, 'corrupt')) throw error;
    cli.err(`baton get: warning: ${error.message}\n`);
    results = [];
  }
  if (results.length === 0) {
    if (fallback !== undefined) cli.out(`${fallback}\n`);
    return 0;
  }
  let text = '';
  for (const value of results) {
    if (value === null && fallback !== undefined) text += `${fallback}\n`;
    else if (value === null && flags.raw) continue;
    else text += `${format(value)}\n`;
  }
  cli.out(text);
  return 0;
}
