import { goalPaths, isValidSlug } from '../goal-paths.js';
import { readPointer, removePointer } from '../pointer.js';
import { appendLog } from '../log-file.js';
import { editState, readLines } from '../state-file.js';
import { readMarkerField, setMarkerField } from '../text.js';
import { labelled, refuse, type GoalContext } from './goal-context.js';
import { isFile } from '../../fs/stat.js';

/** Marks a goal paused and logs it, unless its state file is missing or closed. */
async function markPaused(ctx: GoalContext, slug: string): Promise<void> {
  if (!isValidSlug(slug)) return;
  const paths = goalPaths(ctx.root, slug);
  if (!isFile(paths.state)) return;
  if (readMarkerField(readLines(paths.state), 'status') === 'closed') return;
  await editState(paths.state, (lines) => setMarkerField(lines, 'status', 'paused'), { touchUpdated: true });
  appendLog(paths.log, `goal:${slug} paused`);
}

/**
 * The implicit pause of start and resume: run only after every refusal check, so a refused
 * command changes nothing. Prints just the `paused:` line.
 */
export async function pauseOther(ctx: GoalContext, slug: string): Promise<void> {
  const pointer = readPointer(ctx.root);
  if (!pointer || pointer.slug === slug) return;
  await markPaused(ctx, pointer.slug);
  removePointer(ctx.root);
  ctx.cli.out(labelled('paused', pointer.slug));
}

export default async function pause(ctx: GoalContext): Promise<number> {
  const pointer = readPointer(ctx.root);
  if (!pointer) throw refuse('not_found', 'no active goal');
  await markPaused(ctx, pointer.slug);
  removePointer(ctx.root);
  ctx.cli.out(labelled('paused', pointer.slug));
  ctx.cli.out(`the hooks are off; ${ctx.names.goal} resume ${pointer.slug} brings it back.\n`);
  return 0;
}
