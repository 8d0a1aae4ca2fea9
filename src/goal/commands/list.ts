import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPointer } from '../pointer.js';
import { readMarkerField, splitLines } from '../text.js';
import type { GoalContext } from './goal-context.js';
import { isDirectory } from '../../fs/stat.js';
import { readGoalText } from '../goal-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';
import { BatonError } from '../../core/errors.js';

/** First `# Goal:` line minus the prefix and the spaces after it, cut to 80 characters. */
function goalSentence(lines: string[]): string {
  const line = lines.find((l) => l.startsWith('# Goal:'));
  return line === undefined ? '' : line.slice('# Goal:'.length).replace(/^ +/, '').slice(0, 80);
}

function folders(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

function goalLine(mark: string, name: string, stateFile: string, refused: BatonError[]): string {
  let lines: string[] = [];
  try {
    lines = splitLines(readGoalText(stateFile));
  } catch (error) {
    // One goal's file refused (past its bound, a FIFO) must not hide the others: its row names
    // the problem and the fix, and the command fails after the whole listing.
    if (isReadRefusal(error)) {
      refused.push(error);
      return `${mark} ${name.padEnd(28)} unreadable: ${error.message}\n`;
    }
    // listed with empty values, as the original does for an unreadable file
  }
  const status = readMarkerField(lines, 'status');
  const updated = readMarkerField(lines, 'updated');
  return `${mark} ${name.padEnd(28)} ${status.padEnd(7)} updated ${updated}  ${goalSentence(lines)}\n`;
}

/**
 * Steps 1-2 of 3.5; returns how many live goals were printed. A goal whose state.md a bounded
 * read refuses is printed as a row naming the problem and added to `refused`.
 */
export function printGoals(ctx: GoalContext, all: boolean, refused: BatonError[] = []): number {
  const active = readPointer(ctx.root)?.slug;
  let live = 0;
  for (const name of folders(ctx.root)) {
    const state = join(ctx.root, name, 'state.md');
    if (!existsSync(state)) continue;
    ctx.cli.out(goalLine(name === active ? '*' : ' ', name, state, refused));
    live++;
  }
  const archive = join(ctx.root, 'archive');
  if (all) {
    for (const name of folders(archive)) {
      const state = join(archive, name, 'state.md');
      if (existsSync(state)) ctx.cli.out(goalLine(' ', `archive/${name}`, state, refused));
    }
  } else if (isDirectory(archive)) {
    const count = readdirSync(archive, { withFileTypes: true }).filter((e) => e.isDirectory()).length;
    ctx.cli.out(`  (${count} stopped goals in ${archive}/; ${ctx.names.goal} list --all shows them)\n`);
  }
  return live;
}

export default async function list(ctx: GoalContext, args: string[]): Promise<number> {
  const refused: BatonError[] = [];
  const live = printGoals(ctx, args[0] === '--all', refused);
  if (live === 0) ctx.cli.out(`  (no goals in ${ctx.root})\n`);
  const pointer = readPointer(ctx.root);
  if (pointer) ctx.cli.out(`active: ${pointer.slug} (launched in ${pointer.dir})\n`);
  const first = refused[0];
  if (first) {
    // A partial listing is a refusal (goal.sh's exit 1), as a doctor with a failing row is.
    const others = refused.length > 1 ? ` (and ${refused.length - 1} more, listed above)` : '';
    throw new BatonError(first.code, `${first.message}${others}; the other goals are listed above`);
  }
  return 0;
}
