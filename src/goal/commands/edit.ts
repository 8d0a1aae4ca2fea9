import { isBatonError } from '../../core/errors.js';
import { countNowEntries, hasNowHeading, nowBlock, rewriteNowDone, type NowDoneEdit } from '../now-done.js';
import { editState } from '../state-file.js';
import { doneStamp } from '../time.js';
import { activeGoal, labelled, refuse, usageError, type GoalContext } from './context.js';

/** One leading `- ` removed, newlines folded: how now and land read their free text. */
function entryText(args: string[]): string {
  const text = args.join(' ').replaceAll('\n', ' ');
  return text.startsWith('- ') ? text.slice(2) : text;
}

/** `touch` (3.6): updated= to now; prints the marker line. */
export async function touch(ctx: GoalContext): Promise<number> {
  const { paths } = activeGoal(ctx, true);
  const lines = await editState(paths.state, () => undefined, { touchUpdated: true });
  ctx.cli.out(`${lines[0] ?? ''}\n`);
  return 0;
}

async function rewrite(ctx: GoalContext, edit: NowDoneEdit): Promise<{ before: string[]; after: string[] }> {
  const { paths } = activeGoal(ctx, true);
  let before: string[] = [];
  try {
    const after = await editState(
      paths.state,
      (lines) => {
        before = lines;
        if (!hasNowHeading(lines)) throw refuse(`${paths.state} has no '## Now' line`);
        return rewriteNowDone(lines, edit);
      },
      { touchUpdated: true },
    );
    return { before, after };
  } catch (error) {
    if (isBatonError(error) && error.code !== 'io') throw error;
    throw refuse(`cannot rewrite ${paths.state}`);
  }
}

/** `now <entry...>` (3.7). */
export async function now(ctx: GoalContext, args: string[]): Promise<number> {
  const entry = entryText(args);
  if (entry === '') throw usageError();
  const { after } = await rewrite(ctx, { addEntry: `- ${entry}` });
  ctx.cli.out(nowBlock(after).map((line) => `${line}\n`).join(''));
  return 0;
}

/** `land <label> [<done text...>]` (3.8): the Done line is appended even for an unknown label. */
export async function land(ctx: GoalContext, args: string[]): Promise<number> {
  const label = args[0] ?? '';
  if (label === '') throw usageError();
  const edit: NowDoneEdit = { dropLabel: label };
  if (args.slice(1).join(' ') !== '') edit.doneLine = `- ${doneStamp()} ${entryText(args.slice(1))}`;
  const { before, after } = await rewrite(ctx, edit);
  ctx.cli.out(nowBlock(after).map((line) => `${line}\n`).join(''));
  if (label !== '-' && countNowEntries(before) === countNowEntries(after)) {
    ctx.cli.out(labelled('note', `no Now entry names ${label}; Now is unchanged`));
  }
  return 0;
}
