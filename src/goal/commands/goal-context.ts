import type { CommandIo } from '../../core/command-io.js';
import { BatonError, EXIT, type ErrorCode } from '../../core/errors.js';
import { goalPaths, isValidSlug, type GoalPaths, type ToolNames } from '../goal-paths.js';
import { readPointer, type Pointer } from '../pointer.js';
import { usageText } from './usage.js';
import { isFile } from '../../fs/stat.js';

/** What every goal verb gets: the resolved root, how to name itself, the process face. */
export interface GoalContext {
  root: string;
  names: ToolNames;
  cli: CommandIo;
  /** Physical launch directory (the process cwd is already symlink-free). */
  cwd: string;
}

/**
 * A refusal, with the code callers (and the MCP goal tool) match on. `baton goal` reports each as
 * goal.sh did: exit 1 and one line `<tool>: <reason>` (its face, in cli/commands/goal.ts); a
 * usage error is the one refusal with another exit code, so it is `usageError`.
 */
export function refuse(code: Exclude<ErrorCode, 'usage'>, reason: string): BatonError {
  return new BatonError(code, reason);
}

/** A missing argument: goal.sh's usage block, exit 2. */
export function usageError(ctx: GoalContext): BatonError {
  return new BatonError('usage', usageText(ctx.names.goal).trimEnd(), { compat: { exitCode: EXIT.usage, lead: '' } });
}

const LABEL_WIDTH = 10;

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
  if (!pointer || !isValidSlug(pointer.slug)) throw refuse('not_found', 'no active goal');
  const paths = goalPaths(ctx.root, pointer.slug);
  if (needState && !isFile(paths.state)) throw refuse('not_found', `goal '${pointer.slug}' has no state file`);
  return { pointer, paths };
}
