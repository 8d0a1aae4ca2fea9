/**
 * Git facts for line 1: branch, staged and modified counts.
 *
 * Measured on this machine: one `git` process costs 4-8 ms, so the straightforward two (`git branch`,
 * `git diff --cached --numstat`, `git diff --numstat`: three in the original) would be a third of a
 * status line run. Instead the branch is read from HEAD directly (two small file reads, always
 * fresh), and both counts come from one `git status --porcelain -uno -z`, cached for 5 s per
 * session and folder. `--no-optional-locks` keeps the status line from taking the index lock while
 * the agent runs git itself. In `baton serve` (resident) git runs beside the server: a synchronous
 * run would hold every other hook and status line for as long as git takes (5-45 ms measured here,
 * under load). A one-shot process waits either way, and spawnSync loads no streams: ~6 ms of CPU
 * less per cold run than spawn (perf task-clock, 40 interleaved runs).
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readCache, writeCache } from './cache.js';
import { readFileBounded, SMALL_FILE_MAX_BYTES } from '../../fs/bounded-read.js';

export interface GitInfo {
  branch: string;
  staged: number;
  modified: number;
}

/** The host debounces at 300 ms and cancels a run still going: git gets half of that by default. */
export const DEFAULT_GIT_TIMEOUT_MS = 150;

/** spawnSync's default maxBuffer, kept for both ways of running git: a status past it counts as none. */
const GIT_OUTPUT_MAX_BYTES = 1024 * 1024;

/** A `.git` pointer or HEAD: one line; the status line treats a refused read as no repository. */
const readSmall = (path: string): string => readFileBounded(path, SMALL_FILE_MAX_BYTES, path, 'fix the repository');

/** The git folder of `dir`, or undefined outside a repo. A `.git` file points elsewhere (worktrees). */
function findGitDir(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    try {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit));
      if (pointer?.[1]) return resolve(at, pointer[1]);
    } catch {
      // no .git here: keep walking up
    }
    if (dirname(at) === at) return undefined;
  }
}

/** Like `git branch --show-current`: the short name under refs/heads, empty when detached. */
function readBranch(gitDir: string): string {
  try {
    const head = readSmall(join(gitDir, 'HEAD')).trim();
    return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : '';
  } catch {
    return '';
  }
}

/** Staged = entries with an index change (X), modified = worktree change (Y); untracked not counted. */
async function countChanges(
  dir: string,
  timeoutMs: number,
  resident: boolean,
): Promise<{ staged: number; modified: number } | undefined> {
  const stdout = await gitStatus(dir, timeoutMs, resident);
  if (stdout === undefined) return undefined;
  let staged = 0;
  let modified = 0;
  const entries = stdout.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.length < 3) continue;
    const x = entry[0] ?? ' ';
    const y = entry[1] ?? ' ';
    if (x !== ' ' && x !== '?' && x !== '!') staged++;
    if (y !== ' ' && y !== '?' && y !== '!') modified++;
    // A rename or copy is followed by its source path as a separate NUL-terminated field.
    if (x === 'R' || x === 'C' || y === 'R' || y === 'C') i++;
  }
  return { staged, modified };
}

/** `git status`'s output, or undefined when it fails, times out or says more than spawnSync would keep. */
async function gitStatus(dir: string, timeoutMs: number, resident: boolean): Promise<string | undefined> {
  // Imported here: loading node:child_process costs ~7 ms, paid only when the cache is stale.
  const { spawn, spawnSync } = await import('node:child_process');
  const args = ['--no-optional-locks', 'status', '--porcelain', '-uno', '-z'];
  if (!resident) {
    const result = spawnSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: GIT_OUTPUT_MAX_BYTES,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return result.status === 0 && typeof result.stdout === 'string' ? result.stdout : undefined;
  }
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd: dir, timeout: timeoutMs, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GIT_OUTPUT_MAX_BYTES) child.kill();
      else chunks.push(chunk);
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) =>
      resolve(code === 0 && size <= GIT_OUTPUT_MAX_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined),
    );
  });
}

export interface GitOptions {
  timeoutMs?: number;
  /** A long-lived process (baton serve) that other requests must not wait behind: git runs without blocking it. */
  resident?: boolean;
  now?: number;
}

export async function gitInfo(
  dir: string,
  cacheKey: string | undefined,
  env: NodeJS.ProcessEnv,
  { timeoutMs = DEFAULT_GIT_TIMEOUT_MS, resident = false, now = Date.now() }: GitOptions = {},
): Promise<GitInfo | undefined> {
  const gitDir = findGitDir(dir);
  if (gitDir === undefined) return undefined;
  const branch = readBranch(gitDir);
  const cached = cacheKey === undefined ? undefined : readCache(env, `${cacheKey}.git`, now);
  if (cached?.fresh) {
    const counts = parseCounts(cached.text);
    if (counts) return { branch, ...counts };
  }
  // When git fails or times out, stale counts beat zeros; re-stamping them also keeps a slow repo
  // from paying the timeout on every refresh.
  const counts = (await countChanges(dir, timeoutMs, resident)) ??
    (cached ? parseCounts(cached.text) : undefined) ?? { staged: 0, modified: 0 };
  if (cacheKey !== undefined) writeCache(env, `${cacheKey}.git`, `${counts.staged}|${counts.modified}`);
  return { branch, ...counts };
}

function parseCounts(text: string): { staged: number; modified: number } | undefined {
  const match = /^(\d+)\|(\d+)$/.exec(text.trim());
  return match ? { staged: Number(match[1]), modified: Number(match[2]) } : undefined;
}
