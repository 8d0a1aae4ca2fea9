/**
 * Which OS sandbox this machine offers a shell call: bubblewrap on Linux, sandbox-exec on macOS,
 * or none (then the parser's strict mode decides, stricter still in a protected phase). A hook
 * runs on every tool call, so bubblewrap is tried for real only once per binary: the result is
 * kept in baton's per-user temp folder under bwrap's path, size and mtime (a reinstall probes
 * again). A stale "works" fails closed: the wrapped command then does not run.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userTempDir } from '../../fs/temp-dir.js';
import { readFileBounded, SMALL_FILE_MAX_BYTES } from '../../fs/bounded-read.js';

export type SandboxMode =
  | { kind: 'bubblewrap'; program: string }
  | { kind: 'sandbox-exec'; program: string }
  | { kind: 'none'; reason: string; fix: string };

/** bubblewrap's options for every call (run.sh passes the same): see plugin/sandbox/run.sh. */
export const BWRAP_BASE = [
  '--dev-bind',
  '/',
  '/',
  '--cap-drop',
  'ALL',
  '--unshare-pid',
  '--proc',
  '/proc',
  '--die-with-parent',
  '--new-session',
];

const SEATBELT = '/usr/bin/sandbox-exec';

export async function sandboxMode(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxMode> {
  if (env.BATON_SANDBOX === 'off')
    return { kind: 'none', reason: 'BATON_SANDBOX=off', fix: 'unset BATON_SANDBOX to use the OS sandbox' };
  if (platform === 'darwin') {
    return executable(SEATBELT)
      ? { kind: 'sandbox-exec', program: SEATBELT }
      : { kind: 'none', reason: `${SEATBELT} is missing`, fix: 'use a macOS with sandbox-exec (every release has it)' };
  }
  if (platform !== 'linux')
    return { kind: 'none', reason: `baton has no OS sandbox for ${platform}`, fix: 'run the agent on Linux or macOS' };
  const bwrap = onPath('bwrap', env.PATH ?? '');
  if (!bwrap)
    return {
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not on PATH',
      fix: 'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap)',
    };
  const problem = await probe(bwrap, env);
  return problem
    ? {
        kind: 'none',
        reason: `bubblewrap cannot make a sandbox here (${problem})`,
        fix: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; Ubuntu 24.04+: an AppArmor profile for bwrap)',
      }
    : { kind: 'bubblewrap', program: bwrap };
}

/** undefined when bubblewrap works; else its first line of complaint. */
async function probe(bwrap: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  let key: string;
  try {
    const stat = statSync(bwrap);
    key = `bwrap-${Buffer.from(`${bwrap}\0${stat.size}\0${stat.mtimeMs}`).toString('base64url')}`;
  } catch {
    return 'cannot stat bwrap';
  }
  const dir = userTempDir(env, 'sandbox');
  const cache = dir ? join(dir, key) : undefined;
  if (cache) {
    try {
      const text = readFileBounded(cache, SMALL_FILE_MAX_BYTES, `probe cache ${cache}`, 'remove it');
      return text === 'ok' ? undefined : text;
    } catch {
      // not probed yet
    }
  }
  // Loaded only to probe: node:child_process (with net and stream) costs a hook ~5 ms of CPU, and
  // the answer is cached, so every call after the first reads one file instead.
  const { spawnSync } = await import('node:child_process');
  const run = spawnSync(bwrap, [...BWRAP_BASE, '--', '/bin/true'], { encoding: 'utf8', timeout: 5000 });
  const result =
    run.status === 0
      ? 'ok'
      : (run.stderr.trim().split('\n')[0] ?? '') || run.error?.message || `exit ${String(run.status)}`;
  if (cache) {
    try {
      writeFileSync(cache, result);
    } catch {
      // a cache only
    }
  }
  return result === 'ok' ? undefined : result;
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(':')) {
    if (!dir.startsWith('/')) continue;
    const file = join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
