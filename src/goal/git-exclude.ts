/**
 * Keeps `<launch dir>/.claude/status.md` out of git: if the launch dir is in a work tree
 * and git does not already ignore the file, append `<rel>/.claude/status.md` to info/exclude.
 * git runs with the caller's environment (GIT_CONFIG_GLOBAL and friends must apply). Every
 * failure is ignored: this is a courtesy, never a reason to refuse.
 */
import { isBatonError } from '../core/errors.js';
import { readFileBounded } from '../fs/bounded-read.js';
import { appendNoFollow, confine, mkdirInside } from '../fs/confine.js';
import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

// An exclude file is a list of patterns; one larger than this is not one to append to.
const EXCLUDE_MAX_BYTES = 1024 * 1024;

function git(dir: string, env: NodeJS.ProcessEnv, args: string[]): { status: number | null; out: string } {
  const result = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return { status: result.status, out: result.stdout ?? '' };
}

export function excludeStatusFile(launchDir: string, env: NodeJS.ProcessEnv): void {
  try {
    const info = git(launchDir, env, [
      'rev-parse',
      '--show-toplevel',
      '--git-common-dir',
      '--git-path',
      'info/exclude',
    ]);
    if (info.status !== 0) return;
    const [top, commonRaw, excludeRaw] = info.out.split('\n');
    if (!top || !commonRaw || !excludeRaw) return;
    if (git(launchDir, env, ['check-ignore', '-q', '.claude/status.md']).status === 0) return;
    const rel = relative(top, launchDir);
    if (rel.startsWith('..') || isAbsolute(rel)) return;
    const line = `${rel === '' ? '' : `/${rel.split(sep).join('/')}`}/.claude/status.md\n`;
    const exclude = resolve(launchDir, excludeRaw);
    // The exclude file is git's, inside the repository's git folder: a symlink on the way out of
    // it (`.git/info/exclude -> ~/.bashrc`) is refused (and, like any failure here, ignored).
    const gitDir = resolve(launchDir, commonRaw);
    mkdirInside(gitDir, dirname(exclude), 'git info folder');
    confine(gitDir, exclude, 'git exclude file');
    let existing = '';
    try {
      existing = readFileBounded(exclude, EXCLUDE_MAX_BYTES, 'git exclude file', 'shorten it');
    } catch (error) {
      if (isBatonError(error)) throw error;
      // a new file
    }
    appendNoFollow(exclude, existing !== '' && !existing.endsWith('\n') ? `\n${line}` : line);
  } catch {
    // ignored by design: an exclude file only adds ignores
  }
}
