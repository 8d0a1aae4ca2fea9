import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPointer } from '../pointer.js';
import { readMarkerField, splitLines } from '../text.js';
import type { GoalContext } from './goal-context.js';
import { isDirectory } from '../../fs/stat.js';
import { readGoalText } from '../goal-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';

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

function goalLine(mark: string, name: string, stateFile: string): string {
  let lines: string[] = [];
  try {
    lines = splitLines(readGoalText(stateFile));
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    // listed with empty values, as the original does for an unreadable file
  }
  const status = readMarkerField(lines, 'status');
  const updated = readMarkerField(lines, 'updated');
  return `${mark} ${name.padEnd(28)} ${status.padEnd(7)} updated ${updated}  ${goalSentence(lines)}\n`;
}

/** Steps 1-2 of 3.5; returns how many live goals were printed. */
export function printGoals(ctx: GoalContext, all: boolean): number {
  const active = readPointer(ctx.root)?.slug;
  let live = 0;
  for (const name of folders(ctx.root)) {
    const state = join(ctx.root, name, 'state.md');
    if (!existsSync(state)) continue;
    ctx.cli.out(goalLine(name === active ? '*' : ' ', name, state));
    live++;
  }
  const archive = join(ctx.root, 'archive');
  if (all) {
    for (const name of folders(archive)) {
      const state = join(archive, name, 'state.md');
      if (existsSync(state)) ctx.cli.out(goalLine(' ', `archive/${name}`, state));
    }
  } else if (isDirectory(archive)) {
    const count = readdirSync(archive, { withFileTypes: true }).filter((e) => e.isDirectory()).length;
    ctx.cli.out(`  (${count} stopped goals in ${archive}/; ${ctx.names.goal} list --all shows them)\n`);
  }
  return live;
}

export default async function list(ctx: GoalContext, args: string[]): Promise<number> {
  const live = printGoals(ctx, args[0] === '--all');
  if (live === 0) ctx.cli.out(`  (no goals in ${ctx.root})\n`);
  const pointer = readPointer(ctx.root);
  if (pointer) ctx.cli.out(`active: ${pointer.slug} (launched in ${pointer.dir})\n`);
  return 0;
}
