import { excludeStatusFile } from '../git-exclude.js';
import { appendLog } from '../log-file.js';
import { goalPaths, isValidSlug } from '../goal-paths.js';
import { readPointer, writePointer } from '../pointer.js';
import { editState, readLines } from '../state-file.js';
import { readMarkerField, setMarkerField } from '../text.js';
import { labelled, pathsBlock, refuse, type GoalContext } from './goal-context.js';
import { printGoals } from './list.js';
import { pauseOther } from './pause.js';
import { isFile } from '../../fs/stat.js';

/** Below or at the launch dir, the hooks work; the note is only for elsewhere (the original printed it for any other cwd). */
function inside(cwd: string, dir: string): boolean {
  return `${cwd}/`.startsWith(`${dir}/`);
}

async function showPointer(ctx: GoalContext): Promise<number> {
  const pointer = readPointer(ctx.root);
  if (!pointer) {
    ctx.cli.out(`No active goal. Goals in ${ctx.root}:\n`);
    if (printGoals(ctx, false, undefined) === 0) ctx.cli.out('  (none)\n');
    return 3;
  }
  ctx.cli.out(pathsBlock(ctx, pointer.slug, pointer.dir));
  if (!inside(ctx.cwd, pointer.dir)) {
    ctx.cli.out(
      labelled(
        'note',
        `this session is in ${ctx.cwd}, not the launch directory; the hooks are off here. To move the goal here: ${ctx.names.goal} resume ${pointer.slug}`,
      ),
    );
  }
  return 0;
}

/** `resume [<slug>]`. */
export default async function resume(ctx: GoalContext, args: string[]): Promise<number> {
  const slug = args[0];
  if (slug === undefined || slug === '') return showPointer(ctx);
  // An invalid slug could name something outside ROOT (`resume ../x`): it is simply no goal.
  if (!isValidSlug(slug)) throw refuse('not_found', `no goal '${slug}' (${ctx.names.goal} list)`);
  const paths = goalPaths(ctx.root, slug);
  if (!isFile(paths.state)) throw refuse('not_found', `no goal '${slug}' (${ctx.names.goal} list)`);
  if (readMarkerField(readLines(paths.state), 'status') === 'closed')
    throw refuse('conflict', `goal '${slug}' is closed`);
  const wasActive = readPointer(ctx.root)?.slug === slug;
  await pauseOther(ctx, slug);
  // Resuming the active goal leaves state.md untouched: its mtime feeds the crash check.
  if (!wasActive)
    await editState(paths.state, (lines) => setMarkerField(lines, 'status', 'active'), { touchUpdated: true });
  try {
    writePointer(ctx.root, { slug, dir: ctx.cwd, session: '' });
  } catch {
    throw refuse('io', `cannot write ${ctx.root}/active`);
  }
  excludeStatusFile(ctx.cwd, ctx.cli.env);
  appendLog(paths.log, `goal:${slug} resumed in ${ctx.cwd}`);
  ctx.cli.out(pathsBlock(ctx, slug, ctx.cwd));
  return 0;
}
