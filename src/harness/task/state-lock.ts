import { resolve } from 'node:path';
import { withLock } from '../../fs/lock.js';
import { confine } from '../../fs/confine.js';
import type { HarnessConfig } from '../../project/config.js';

/**
 * The one state lock of the Eneo harness (`<stateDir>/.locks/state.lock`). Every operation that writes
 * `wave.json` (wave start, the barrier, init, clear) holds it across *both* files, taking the task
 * document's own lock inside it. The order is always state lock, then document lock, so the two
 * can never deadlock; plain task updates take only the document lock, as they touch one file.
 */
export function stateLockPath(config: HarnessConfig, root: string): string {
  return resolve(root, config.stateDir, '.locks', 'state.lock');
}

export function withStateLock<T>(
  config: HarnessConfig,
  root: string,
  timeoutMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  // createDir: false when the state folder is absent would refuse; callers check existence first.
  return withLock(confine(root, stateLockPath(config, root), 'state lock'), { timeoutMs, label: 'state' }, fn);
}
