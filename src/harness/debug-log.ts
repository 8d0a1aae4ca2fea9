import { appendFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The hook debug log: `$BATON_DEBUG_LOG`, else `<tmpdir>/baton-hooks.log`. Hooks write here why
 * they did nothing (garbage stdin, a broken config, an internal error) because the host hides a
 * hook's stderr on success. Kept under ~1 MB by rotating to `.1`. Never throws.
 */
const MAX_BYTES = 1_000_000;

export function debugLogPath(env: NodeJS.ProcessEnv): string {
  return env.BATON_DEBUG_LOG || join(env.TMPDIR || tmpdir(), 'baton-hooks.log');
}

export function debugLog(env: NodeJS.ProcessEnv, event: string, lines: string[]): void {
  if (lines.length === 0) return;
  const file = debugLogPath(env);
  try {
    try {
      if (statSync(file).size > MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    const stamp = new Date().toISOString();
    appendFileSync(file, lines.map((line) => `${stamp} pid=${process.pid} ${event || '-'} ${line.replaceAll('\n', '\\n')}\n`).join(''));
  } catch {
    // a debug log must never break a hook
  }
}
