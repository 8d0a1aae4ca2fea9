/**
 * Scope: a valid pointer, a cwd at or below its launch dir (physical paths; `/w/app-x` is
 * not below `/w/app`), and the goal's state file. The owner is the pointer's session when it
 * equals the hook's non-empty session id. A pointer that is there but cannot be read throws.
 */
import { realpathSync } from 'node:fs';
import { goalPaths, isValidSlug, type GoalPaths } from '../goal-paths.js';
import { readPointer, type Pointer } from '../pointer.js';
import type { GoalPayload } from './input.js';
import { isFile } from '../../fs/stat.js';

export interface Scope {
  root: string;
  pointer: Pointer;
  paths: GoalPaths;
  owner: boolean;
}

export function resolveScope(root: string, input: GoalPayload, processCwd: string): Scope | undefined {
  // A pointer that cannot be read throws its line (goal-handlers.ts says it): not "no goal".
  const pointer = readPointer(root);
  // A slug that is not a valid slug could point outside ROOT: never follow it.
  if (!pointer || !isValidSlug(pointer.slug)) return undefined;
  let cwd: string;
  try {
    cwd = realpathSync(input.cwd === '' ? processCwd : input.cwd);
  } catch {
    return undefined;
  }
  if (!`${cwd}/`.startsWith(`${pointer.dir}/`)) return undefined;
  const paths = goalPaths(root, pointer.slug);
  if (!isFile(paths.state)) return undefined;
  return { root, pointer, paths, owner: input.sessionId !== '' && input.sessionId === pointer.session };
}
