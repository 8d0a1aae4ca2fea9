import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userTempDir } from '../../stores/file/paths.js';
import { StateReader } from '../policy/state.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './context.js';

/**
 * Stop: the project's verification commands (`stop.commands`), each optionally conditioned on a
 * document field (e.g. only when status is `verified`). A failure blocks the stop with the
 * command's output tail as the reason. Two guards against stop loops: nothing blocks while
 * `stop_hook_active` is set, and the same reason never blocks twice in a row for one session
 * (remembered in a small file in this user's own temp folder, keyed by session and project; without
 * a usable one the second guard is off).
 */
const TAIL_LINES = 20;

export async function stop({ input, config, root, env }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const commands = config.stop?.commands ?? [];
  if (commands.length === 0) return outcome;
  const dir = userTempDir(env, 'stop');
  const memory = dir === undefined ? undefined : join(dir, `${createHash('sha256').update(`${input.sessionId}\0${root}`).digest('hex').slice(0, 16)}.txt`);
  // The memory holds the reason of the previous Stop's block only: a Stop that does not block
  // (here, the continuation the block caused) clears it, so the next turn's Stop checks afresh
  // instead of letting a still-failing check through as a "repeat".
  if (input.stopHookActive) {
    forget(memory);
    return { log: ['[stop] stop_hook_active is set; not blocking again'] };
  }
  const state = new StateReader(config, root);
  for (const command of commands) {
    if (!state.matches(command.when)) continue;
    const run = spawnSync('sh', ['-c', command.run], { cwd: root, encoding: 'utf8', timeout: (command.timeoutSec ?? 120) * 1000, env });
    if (run.status === 0) continue;
    const why = run.error ? `could not run (${run.error.message})` : run.signal ? `timed out after ${command.timeoutSec ?? 120}s` : `exit ${run.status}`;
    const tail = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
    const reason = `Verification '${command.name}' failed (${why}). Fix what it reports, then finish.\n$ ${command.run}\n${tail}`.slice(0, 9000);
    const key = createHash('sha256').update(`${command.name}\0${why}\0${tail}`).digest('hex');
    if (memory !== undefined && readText(memory) === key) {
      forget(memory);
      return { log: [`[stop] '${command.name}' failed again for the same reason; not blocking twice in a row`] };
    }
    if (memory !== undefined) remember(memory, key);
    return { block: { reason }, log: [`[stop] blocked: '${command.name}' ${why}`] };
  }
  forget(memory);
  return outcome;
}

function remember(memory: string, key: string): void {
  try {
    writeFileSync(memory, key, { flag: (constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0)) as unknown as string, mode: 0o600 });
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
