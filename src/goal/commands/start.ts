import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic.js';
import { excludeStatusFile } from '../git-exclude.js';
import { appendLog } from '../log-file.js';
import { goalPaths, isValidSlug } from '../goal-paths.js';
import { writePointer } from '../pointer.js';
import { foldNewlines, initialState } from '../template.js';
import { pathsBlock, refuse, type GoalContext } from './goal-context.js';
import { pauseOther } from './pause.js';
import { lstatOrMissing } from '../../fs/stat.js';

/**
 * `start <slug> <sentence...>`: checks first, then pause, folder, state, log, pointer. A missing
 * slug or sentence is `baton goal`'s usage error, checked before this runs.
 */
export default async function start(ctx: GoalContext, args: string[]): Promise<number> {
  const slug = args[0] as string;
  const sentence = foldNewlines(args.slice(1).join(' '));
  if (!isValidSlug(slug)) throw refuse('invalid', `bad slug '${slug}' (lower-case letters, digits, '-')`);
  const paths = goalPaths(ctx.root, slug);
  if (lstatOrMissing(paths.state) !== undefined)
    throw refuse('exists', `goal '${slug}' exists; use: ${ctx.names.goal} resume ${slug}`);
  if (lstatOrMissing(join(ctx.root, 'archive', slug)) !== undefined)
    throw refuse('exists', `a stopped goal is archived as '${slug}'; pick another slug`);

  await pauseOther(ctx, slug);
  try {
    for (const sub of ['briefs', 'reports', 'maps', 'scratch']) mkdirSync(join(paths.dir, sub), { recursive: true });
  } catch {
    throw refuse('io', `cannot create ${paths.dir}`);
  }
  // Written completely or not at all, and before the pointer, so a pointer never names a half-written goal.
  try {
    if (existsSync(paths.state)) throw new Error('appeared meanwhile');
    writeFileAtomic(paths.state, initialState(sentence));
  } catch {
    throw refuse('io', `cannot write ${paths.state}`);
  }
  appendLog(paths.log, `goal:${slug} started in ${ctx.cwd}: ${sentence}`);
  try {
    writePointer(ctx.root, { slug, dir: ctx.cwd, session: '' });
  } catch {
    throw refuse('io', `cannot write ${join(ctx.root, 'active')}`);
  }
  excludeStatusFile(ctx.cwd, ctx.cli.env);
  ctx.cli.out(pathsBlock(ctx, slug, ctx.cwd));
  return 0;
}
