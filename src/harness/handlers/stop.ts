import { createHash } from 'node:crypto';
import { constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userTempDir } from '../../fs/temp-dir.js';
import { StateReader } from '../../project/policy/state.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './handler-context.js';
import { command, PRESETS, waveGate, type CheckContext, type Failure } from './stop-checks.js';

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
  const dir = userTempDir(env, 'stop');
  const memory =
    dir === undefined
      ? undefined
      : join(dir, `${createHash('sha256').update(`${input.sessionId}\0${root}`).digest('hex').slice(0, 16)}.txt`);
  // The memory holds the reason of the previous Stop's block only: a Stop that does not block
  // (here, the continuation the block caused) clears it, so the next turn's Stop checks afresh
  // instead of letting a still-failing check through as a "repeat".
  if (input.stopHookActive) {
    forget(memory);
    return { log: ['[stop] stop_hook_active is set; not blocking again'] };
  }
  const state = new StateReader(config, root, documents);
  const context: CheckContext = { config, root, env, state, log: outcome.log };
  const checks: (() => Failure | undefined)[] = [
    () => waveGate(context),
    ...(stopConfig.presets ?? []).map((name) => () => PRESETS[name](context)),
    ...(stopConfig.commands ?? []).map(
      (entry) => () => (state.matches(entry.when) ? command(entry, context) : undefined),
    ),
  ];
  for (const check of checks) {
    const failure = check();
    if (!failure) continue;
    const key = createHash('sha256').update(`${failure.name}\0${failure.reason}`).digest('hex');
    if (memory !== undefined && readText(memory) === key) {
      forget(memory);
      outcome.log.push(`[stop] '${failure.name}' failed again for the same reason; not blocking twice in a row`);
      return outcome;
    }
    if (memory !== undefined) remember(memory, key);
    outcome.block = { reason: failure.reason.slice(0, 9000) };
    outcome.log.push(`[stop] blocked: '${failure.name}' ${failure.why}`);
    return outcome;
  }
  forget(memory);
  return outcome;
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
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
