import type { Cli } from '../../cli/context.js';
import { BatonError } from '../../core/errors.js';
import { goalPaths, isValidSlug, type GoalPaths, type ToolNames } from '../paths.js';
import { readPointer, type Pointer } from '../pointer.js';
import { isRegularFile } from '../state-file.js';

/** What every goal verb gets: the resolved root, how to name itself, the process face. */
export interface GoalContext {
  root: string;
  names: ToolNames;
  cli: Cli;
  /** Physical launch directory (the process cwd is already symlink-free). */
  cwd: string;
}

/** A refusal: exit 1 with one line `<tool>: <reason>` on stderr. */
export function refuse(reason: string): BatonError {
  return new BatonError('not_found', reason);
}

export function usageError(): BatonError {
  return new BatonError('usage', 'usage');
}

export const LABEL_WIDTH = 10;

export function labelled(label: string, value: string): string {
  return `${`${label}:`.padEnd(LABEL_WIDTH)}${value}\n`;
}

export function pathsBlock(ctx: GoalContext, slug: string, launchDir: string): string {
  const paths = goalPaths(ctx.root, slug);
  return (
    labelled('goal', slug) +
    labelled('folder', paths.dir) +
    labelled('state', paths.state) +
    // goal.sh prints the bare path; baton says whose file it is, since nothing creates it.
    labelled(
      'status',
      `${launchDir}/.claude/status.md${ctx.names.compat ? '' : ' (the agent writes it; baton never does)'}`,
    ) +
    labelled('launched', launchDir)
  );
}

/** The active goal for touch/now/land/close: valid pointer, and its state file. */
export function activeGoal(ctx: GoalContext, needState: boolean): { pointer: Pointer; paths: GoalPaths } {
  const pointer = readPointer(ctx.root);
  // A pointer naming an invalid slug could aim outside ROOT; treat it as no goal at all.
  if (!pointer || !isValidSlug(pointer.slug)) throw refuse('no active goal');
  const paths = goalPaths(ctx.root, pointer.slug);
  if (needState && !isRegularFile(paths.state)) throw refuse(`goal '${pointer.slug}' has no state file`);
  return { pointer, paths };
}
