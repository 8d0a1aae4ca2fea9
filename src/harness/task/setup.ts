/**
 * What the `baton task` operations share: the project's task document, state folder and wave
 * file (from baton.config.json, the eneo profile's layout by default).
 */
import { resolve } from 'node:path';
import type { CommandIo } from '../../core/command-io.js';
import { EXIT } from '../../core/errors.js';
import type { Doc } from '../../doc/doc.js';
import { openDoc } from '../../doc/open.js';
import { projectContext } from '../../project/project-context.js';
import { taskRules } from '../../project/document-rules.js';
import type { HarnessConfig } from '../../project/config.js';
import { DEFAULT_PROFILE } from '../../project/profiles/registry.js';
import { HELPER_LOCK_TIMEOUT_MS, runtimeOptions } from '../../core/runtime-options.js';
import { stateExit } from './task-errors.js';

export interface TaskSetup {
  root: string;
  config: HarnessConfig;
  taskPath: string;
  stateDir: string;
  waveFile: string;
  lockTimeoutMs: number;
  /** The shell that may hold the state lock for this write (BATON_LOCK_HOLDER_PID; shell-lock.ts). */
  lockHolder?: number;
  doc(): Doc;
}

export function taskSetup(cli: CommandIo): TaskSetup {
  // These are the Eneo harness's operations: with no profile configured, its layout and root
  // markers apply (as `baton hook --profile eneo` assumes), so both find the same state.
  const project = projectContext({ cwd: cli.cwd, env: cli.env, defaultProfile: DEFAULT_PROFILE });
  const { file, root } = project;
  if (file.state === 'invalid') throw stateExit('invalid', EXIT.refused, file.error);
  // The classification is not checked here: the engine applies it to every write of the task.
  const { config, path: taskPath } = taskRules(project);
  const { lockTimeoutMs, lockHolderPid } = runtimeOptions(cli.env, { lockTimeoutMs: HELPER_LOCK_TIMEOUT_MS });
  return {
    root,
    config,
    taskPath,
    stateDir: resolve(root, config.stateDir),
    waveFile: resolve(root, config.wave?.file ?? `${config.stateDir}/wave.json`),
    lockTimeoutMs,
    ...(lockHolderPid !== undefined ? { lockHolder: lockHolderPid } : {}),
    doc: () => openDoc(taskPath, { cwd: root, env: { ...cli.env, BATON_ROOT: root }, lockTimeoutMs, project }),
  };
}

/** The engine's coercion note, in the Eneo helpers' wording. */
export function stateNote(note: string): string {
  const coerced = /^stored (\S+) as a number/.exec(note);
  return coerced ? `stored ${coerced[1]} as a number; pass it with json:` : note;
}
