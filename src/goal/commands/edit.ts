import { isBatonError } from '../../core/errors.js';
import { countNowEntries, hasNowHeading, nowBlock, rewriteNowDone, type NowDoneEdit } from '../now-done.js';
import { editState, fromBytes, toBytes } from '../state-file.js';
import { clockOf, doneStamp } from '../goal-time.js';
import { activeGoal, labelled, refuse, usageError, type GoalContext } from './goal-context.js';

/** One leading `- ` removed, newlines folded: how now and land read their free text. */
function entryText(args: string[]): string {
  const text = args.join(' ').replaceAll('\n', ' ');
  return text.startsWith('- ') ? text.slice(2) : text;
}

/** `touch`: updated= to now; prints the marker line. */
export async function touch(ctx: GoalContext): Promise<number> {
  const { paths } = activeGoal(ctx, true);
  const lines = await editState(paths.state, () => undefined, { touchUpdated: true });
  ctx.cli.out(`${fromBytes(lines[0] ?? '')}\n`);
  return 0;
}

/** `edit` is built under the state lock: a Done line's stamp is the time it lands, in file order. */
async function rewrite(
  ctx: GoalContext,
  edit: (now: Date) => NowDoneEdit,
): Promise<{ before: string[]; after: string[] }> {
  const { paths } = activeGoal(ctx, true);
  let before: string[] = [];
  const clock = clockOf(ctx.cli.env);
  try {
    const after = await editState(
      paths.state,
      (lines) => {
        before = lines;
        if (!hasNowHeading(lines)) throw refuse('invalid', `${paths.state} has no '## Now' line`);
        return rewriteNowDone(lines, edit(clock()));
      },
      { touchUpdated: true },
    );
    return { before, after };
  } catch (error) {
    if (isBatonError(error) && error.code !== 'io') throw error;
    throw refuse('io', `cannot rewrite ${paths.state}`);
  }
}

function printNow(ctx: GoalContext, lines: string[]): void {
  ctx.cli.out(
    nowBlock(lines)
      .map((line) => `${fromBytes(line)}\n`)
      .join(''),
  );
}

/** `now <entry...>`. */
export async function now(ctx: GoalContext, args: string[]): Promise<number> {
  const entry = entryText(args);
  if (entry === '') throw usageError(ctx);
  const { after } = await rewrite(ctx, () => ({ addEntry: toBytes(`- ${entry}`) }));
  printNow(ctx, after);
  return 0;
}

/** `land <label> [<done text...>]`: the Done line is appended even for an unknown label. */
export async function land(ctx: GoalContext, args: string[]): Promise<number> {
  const label = args[0] ?? '';
  if (label === '') throw usageError(ctx);
  const text = args.slice(1).join(' ') !== '' ? entryText(args.slice(1)) : undefined;
  const { before, after } = await rewrite(ctx, (now) => ({
    dropLabel: toBytes(label),
    ...(text !== undefined ? { doneLine: toBytes(`- ${doneStamp(now)} ${text}`) } : {}),
  }));
  printNow(ctx, after);
  if (label !== '-' && countNowEntries(before) === countNowEntries(after)) {
    ctx.cli.out(labelled('note', `no Now entry names ${label}; Now is unchanged`));
  }
  return 0;
}
