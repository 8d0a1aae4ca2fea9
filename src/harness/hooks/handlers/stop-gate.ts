import { createHash } from 'node:crypto';
import { constants, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userTempDir } from '../../../fs/temp-dir.js';
import { StateReader } from '../../../project/policy/state.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './handler-context.js';
import {
  boardGate,
  command,
  PRESETS,
  waveGate,
  type BoardRead,
  type CheckContext,
  type Failure,
} from './stop-checks.js';
import { readStateText } from '../../task/state-read.js';

/**
 * Stop: the wave gate, the built-in presets (`stop.presets`) and the project's verification
 * commands (`stop.commands`, each optionally conditioned on a document field), in that order; the
 * first failure blocks the stop with its reason. Two guards against stop loops: nothing blocks
 * while `stop_hook_active` is set, and the same reason never blocks twice in a row for one
 * session (remembered in a small file in this user's own temp folder, keyed by session and
 * project; without a usable one the second guard is off).
 */
export async function stop({ input, config, root, env, documents }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const stopConfig = config.stop;
  if (!stopConfig) return outcome;
  const memory = stopMemory(env, input.sessionId, root);
  // The memory holds the reason of the previous Stop's block only: a Stop that does not block
  // (here, the continuation the block caused) clears it, so the next turn's Stop checks afresh
  // instead of letting a still-failing check through as a "repeat".
  if (input.stopHookActive) {
    forget(memory);
    return { log: ['[stop] stop_hook_active is set; not blocking again'] };
  }
  const state = new StateReader(config, root, documents);
  const context: CheckContext = { config, root, env, state, log: outcome.log };
  const board = await readBoard(config, root, env);
  const checks: (() => Failure | undefined)[] = [
    () => waveGate(context),
    () => boardGate(context, board),
    ...(stopConfig.presets ?? []).map((name) => () => PRESETS[name](context)),
    ...(stopConfig.commands ?? []).map(
      (entry) => () => (state.matches(entry.when) ? command(entry, context) : undefined),
    ),
  ];
  for (const check of checks) {
    const failure = check();
    if (!failure) continue;
    const key = createHash('sha256').update(`${failure.name}\0${failure.reason}`).digest('hex');
    if (memory !== undefined && readText(memory)?.split('\n')[0] === key) {
      forget(memory);
      outcome.log.push(`[stop] '${failure.name}' failed again for the same reason; not blocking twice in a row`);
      return outcome;
    }
    const reason = failure.reason.slice(0, 9000);
    if (memory !== undefined) remember(memory, `${key}\n${hashText(reason)}`);
    outcome.block = { reason };
    outcome.log.push(`[stop] blocked: '${failure.name}' ${failure.why}`);
    return outcome;
  }
  forget(memory);
  return outcome;
}

/** The board, read through the project's store (any backend) only when the board gate is on. */
async function readBoard(
  config: HandlerContext['config'],
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<BoardRead | undefined> {
  if ((config.stop?.boardGate ?? 'off') === 'off') return undefined;
  try {
    const { Board } = await import('../../../board/board.js');
    return { board: await new Board({ cwd: root, env: { ...env, BATON_ROOT: root } }).read() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The file remembering this session's last Stop block: the check's key, then its reason's hash. */
function stopMemory(env: NodeJS.ProcessEnv, sessionId: string, root: string): string | undefined {
  const dir = userTempDir(env, 'stop');
  if (dir === undefined) return undefined;
  return join(dir, `${createHash('sha256').update(`${sessionId}\0${root}`).digest('hex').slice(0, 16)}.txt`);
}

const hashText = (text: string): string => createHash('sha256').update(text.trim(), 'utf8').digest('hex');

/**
 * Whether `prompt` is the reason of this session's last Stop block, sent back as a prompt: Gemini
 * CLI continues a blocked AfterAgent with the reason as a new prompt, and fires BeforeAgent for it.
 */
export function isStopBlockReason(env: NodeJS.ProcessEnv, sessionId: string, root: string, prompt: string): boolean {
  const memory = stopMemory(env, sessionId, root);
  return memory !== undefined && readText(memory)?.split('\n')[1] === hashText(prompt);
}

function remember(memory: string, key: string): void {
  try {
    writeFileSync(memory, key, {
      flag: (constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_TRUNC |
        (constants.O_NOFOLLOW ?? 0)) as unknown as string,
      mode: 0o600,
    });
  } catch {
    // only the repeat guard is lost
  }
}

function forget(memory: string | undefined): void {
  if (memory !== undefined) rmSync(memory, { force: true });
}

function readText(path: string): string | undefined {
  try {
    return readStateText(path);
  } catch {
    return undefined;
  }
}
