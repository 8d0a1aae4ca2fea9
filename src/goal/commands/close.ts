import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { diskUsageBytes, humanSize } from '../disk-usage.js';
import { appendLog } from '../log-file.js';
import { insideRoot } from '../goal-paths.js';
import { removePointer } from '../pointer.js';
import { editState, underStateLock } from '../state-file.js';
import { setMarkerField } from '../text.js';
import { compactStamp } from '../goal-time.js';
import { activeGoal, labelled, refuse, type GoalContext } from './goal-context.js';

/** The lock file lives in the goal folder; it is released, not archived. */
const LOCK_NAME = '.state.md.lock';

function destination(root: string, slug: string): string {
  const plain = join(root, 'archive', slug);
  if (!existsSync(plain)) return plain;
  const stamped = join(root, 'archive', `${slug}.${compactStamp()}`);
  let candidate = stamped;
  for (let n = 2; existsSync(candidate); n++) candidate = `${stamped}-${n}`;
  return candidate;
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone
  }
}

/**
 * `close`: mark closed, log, move everything but scratch/ (hidden names included, `..notes`
 * too) into the archive, drop the pointer. Scratch stays: it can hold registered git worktrees.
 */
export default async function close(ctx: GoalContext): Promise<number> {
  const { pointer, paths } = activeGoal(ctx, true);
  const slug = pointer.slug;
  // Checked before anything changes: an archive folder linked out of ROOT refuses the close.
  const dest = insideRoot(ctx.root, destination(ctx.root, slug));
  await editState(paths.state, (lines) => setMarkerField(lines, 'status', 'closed'), { touchUpdated: true });
  appendLog(paths.log, `goal:${slug} stopped`);
  try {
    mkdirSync(dest, { recursive: true });
  } catch {
    throw refuse('io', `cannot create ${dest}`);
  }
  await underStateLock(paths.state, () => {
    for (const name of readdirSync(paths.dir)) {
      if (name === 'scratch' || name === LOCK_NAME) continue;
      if (existsSync(join(dest, name))) continue; // never overwrite
      renameSync(join(paths.dir, name), join(dest, name));
    }
  });
  removePointer(ctx.root);
  const scratch = join(paths.dir, 'scratch');
  removeIfEmpty(scratch);
  removeIfEmpty(paths.dir);
  ctx.cli.out(labelled('closed', slug));
  ctx.cli.out(labelled('archived', dest));
  if (existsSync(scratch)) ctx.cli.out(labelled('kept', `${scratch} (${humanSize(diskUsageBytes(scratch))})`));
  ctx.cli.out('pointer removed: the hooks are off.\n');
  return 0;
}
