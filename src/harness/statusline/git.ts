/**
 * Git facts for line 1: branch, staged and modified counts.
 *
 * Measured on this machine: one `git` process costs 4-8 ms, so the straightforward two (`git branch`,
 * `git diff --cached --numstat`, `git diff --numstat`: three in the original) would be a third of a
 * status line run. Instead the branch is read from HEAD directly (two small file reads, always
 * fresh), and both counts come from one `git status --porcelain -uno -z`, cached for 5 s per
 * session and folder. `--no-optional-locks` keeps the status line from taking the index lock while
 * the agent runs git itself.
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
  timeoutMs = DEFAULT_GIT_TIMEOUT_MS,
): Promise<{ staged: number; modified: number } | undefined> {
  // Imported here: loading node:child_process costs ~7 ms, paid only when the cache is stale.
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync('git', ['--no-optional-locks', 'status', '--porcelain', '-uno', '-z'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (result.status !== 0 || typeof result.stdout !== 'string') return undefined;
  let staged = 0;
  let modified = 0;
  const entries = result.stdout.split('\0');
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

export async function gitInfo(
  dir: string,
  cacheKey: string | undefined,
  env: NodeJS.ProcessEnv,
  timeoutMs = DEFAULT_GIT_TIMEOUT_MS,
  now = Date.now(),
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
  const counts = (await countChanges(dir, timeoutMs)) ??
    (cached ? parseCounts(cached.text) : undefined) ?? { staged: 0, modified: 0 };
  if (cacheKey !== undefined) writeCache(env, `${cacheKey}.git`, `${counts.staged}|${counts.modified}`);
  return { branch, ...counts };
}

function parseCounts(text: string): { staged: number; modified: number } | undefined {
  const match = /^(\d+)\|(\d+)$/.exec(text.trim());
  return match ? { staged: Number(match[1]), modified: Number(match[2]) } : undefined;
}
