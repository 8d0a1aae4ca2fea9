import type { HistoryEntry } from '../../stores/index.js';
import { intFlag, parseCommand } from '../args.js';
import { historyDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { openForCli } from '../open-for-cli.js';

const DEFAULT_LIMIT = 20;

export default async function history(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(historyDefinition(), args);
  const limit = intFlag(flags.limit, 'limit', DEFAULT_LIMIT) as number;
  // One more than shown, to say when the default cut the list short.
  const entries = await openForCli(positionals[0] as string, cli).history({ limit: limit + 1 });
  if (entries.length > limit) {
    entries.length = limit;
    if (flags.limit === undefined) cli.err(`baton history: the newest ${limit} revisions; --limit N shows more\n`);
  }
  if (flags.json) {
    cli.out(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    return 0;
  }
  cli.out(entries.map((entry) => `${row(entry)}\n`).join(''));
  return 0;
}

function row(entry: HistoryEntry): string {
  const { op } = entry;
  const what = op.expr ?? op.path ?? op.note ?? (op.rev ? `to rev ${op.rev}` : '');
  const changed = entry.patch
    .map((p) => p.path || '/')
    .slice(0, 4)
    .join(' ');
  const more = entry.patch.length > 4 ? ` +${entry.patch.length - 4}` : '';
  return [`r${entry.rev}`, entry.time, entry.writer ?? '-', op.kind, what, changed + more].join('\t');
}
