import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readPointer, type Pointer } from '../pointer.js';
import { readMarkerField, splitLines } from '../text.js';
import type { GoalContext } from './goal-context.js';
import { isDirectory } from '../../fs/stat.js';
import { readGoalText } from '../goal-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';
import { BatonError, isBatonError, systemFix } from '../../core/errors.js';
import { noEntry } from '../../fs/absent.js';

/** First `# Goal:` line minus the prefix and the spaces after it, cut to 80 characters. */
function goalSentence(lines: string[]): string {
  const line = lines.find((l) => l.startsWith('# Goal:'));
  return line === undefined ? '' : line.slice('# Goal:'.length).replace(/^ +/, '').slice(0, 80);
}

/**
 * The goal folders in `dir` (names not starting with a dot), sorted; none when it is not there. A
 * folder that is there but cannot be listed is added to `refused`, its row printed, and undefined
 * returned: a listing must not say "no goals" where it could not look.
 */
function folders(ctx: GoalContext, dir: string, refused: BatonError[]): string[] | undefined {
  try {
    return readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch (error) {
    if (noEntry(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    ctx.cli.out(
      `  ${dir}/ unreadable: ${unreadable(refused, dir, 'cannot be listed, so the goals in it are not shown', error)}\n`,
    );
    return undefined;
  }
}

/** `path what: cause and fix` as a refusal added to `refused`; its message, for the row. */
function unreadable(refused: BatonError[], path: string, what: string, error: unknown): string {
  const refusal = new BatonError('io', `${path} ${what}: ${systemFix(error) ?? String(error)}`, { cause: error });
  refused.push(refusal);
  return refusal.message;
}

/**
 * Whether `name` in `dir` is a goal (its state.md is there). One whose folder cannot be looked into
 * may be: its row says so, and it is added to `refused`.
 */
function isGoal(ctx: GoalContext, dir: string, name: string, label: string, refused: BatonError[]): boolean {
  const state = join(dir, name, 'state.md');
  try {
    return statSync(state, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // A file beside the goals (the pointer) holds no state.md.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    ctx.cli.out(`  ${label.padEnd(28)} unreadable: ${unreadable(refused, state, 'cannot be looked at', error)}\n`);
    return false;
  }
}

function goalLine(mark: string, name: string, stateFile: string, refused: BatonError[]): string {
  let lines: string[] = [];
  try {
    lines = splitLines(readGoalText(stateFile));
  } catch (error) {
    // One goal's file refused (past its bound, a FIFO, this user may not read it) must not hide the
    // others: its row names the problem and the fix, and the command fails after the whole listing.
    if (isReadRefusal(error)) {
      refused.push(error);
      return `${mark} ${name.padEnd(28)} unreadable: ${error.message}\n`;
    }
    if (!noEntry(error))
      return `${mark} ${name.padEnd(28)} unreadable: ${unreadable(refused, stateFile, 'cannot be read', error)}\n`;
    // gone since it was seen: listed with empty values, as the original does
  }
  const status = readMarkerField(lines, 'status');
  const updated = readMarkerField(lines, 'updated');
  return `${mark} ${name.padEnd(28)} ${status.padEnd(7)} updated ${updated}  ${goalSentence(lines)}\n`;
}

/**
 * Steps 1-2 of 3.5; returns how many live goals were printed, undefined when the goals' folder
 * cannot be listed. What cannot be read (a goal's state.md, a folder) is printed as a row naming
 * the problem and added to `refused`. `active` is the active goal's slug, read by the caller.
 */
export function printGoals(
  ctx: GoalContext,
  all: boolean,
  active: string | undefined,
  refused: BatonError[] = [],
): number | undefined {
  const names = folders(ctx, ctx.root, refused);
  if (names === undefined) return undefined;
  let live = 0;
  for (const name of names) {
    // The stopped goals' folder, listed below.
    if (name === 'archive' || !isGoal(ctx, ctx.root, name, name, refused)) continue;
    ctx.cli.out(goalLine(name === active ? '*' : ' ', name, join(ctx.root, name, 'state.md'), refused));
    live++;
  }
  const archive = join(ctx.root, 'archive');
  if (all) {
    for (const name of folders(ctx, archive, refused) ?? [])
      if (isGoal(ctx, archive, name, `archive/${name}`, refused))
        ctx.cli.out(goalLine(' ', `archive/${name}`, join(archive, name, 'state.md'), refused));
  } else if (isDirectory(archive)) {
    try {
      const count = readdirSync(archive, { withFileTypes: true }).filter((e) => e.isDirectory()).length;
      ctx.cli.out(`  (${count} stopped goals in ${archive}/; ${ctx.names.goal} list --all shows them)\n`);
    } catch (error) {
      ctx.cli.out(
        `  ${archive}/ unreadable: ${unreadable(refused, archive, 'cannot be listed, so its stopped goals are not counted', error)}\n`,
      );
    }
  }
  return live;
}

export default async function list(ctx: GoalContext, args: string[]): Promise<number> {
  const refused: BatonError[] = [];
  // A pointer that cannot be read hides which goal is active, not the goals: they are listed
  // without the mark, and the command fails after the listing (start and the others refuse).
  let pointer: Pointer | undefined;
  let unknown: BatonError | undefined;
  try {
    pointer = readPointer(ctx.root);
  } catch (error) {
    if (!isBatonError(error)) throw error;
    unknown = error;
  }
  // "No goals" only where it looked: a root it could not list has its row above (undefined), and
  // so has a goal folder it could not look into (a symlink loop, a folder it may not enter).
  if (printGoals(ctx, args[0] === '--all', pointer?.slug, refused) === 0 && refused.length === 0)
    ctx.cli.out(`  (no goals in ${ctx.root})\n`);
  if (pointer) ctx.cli.out(`active: ${pointer.slug} (launched in ${pointer.dir})\n`);
  if (unknown) {
    ctx.cli.out(`active: unknown: ${unknown.message}\n`);
    refused.unshift(unknown);
  }
  const first = refused[0];
  if (first) {
    // A partial listing is a refusal (goal.sh's exit 1), as a doctor with a failing row is.
    const others = refused.length > 1 ? ` (and ${refused.length - 1} more, listed above)` : '';
    throw new BatonError(first.code, `${first.message}${others}; what could be read is listed above`);
  }
  return 0;
}
