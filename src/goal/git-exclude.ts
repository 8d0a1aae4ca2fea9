/**
 * Keeps `<launch dir>/.claude/status.md` out of git: if the launch dir is in a work tree
 * and git does not already ignore the file, append `<rel>/.claude/status.md` to info/exclude.
 * git runs with the caller's environment (GIT_CONFIG_GLOBAL and friends must apply). Every
 * failure is ignored: this is a courtesy, never a reason to refuse.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

function git(dir: string, env: NodeJS.ProcessEnv, args: string[]): { status: number | null; out: string } {
  const result = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return { status: result.status, out: result.stdout ?? '' };
}

export function excludeStatusFile(launchDir: string, env: NodeJS.ProcessEnv): void {
  try {
    const info = git(launchDir, env, ['rev-parse', '--show-toplevel', '--git-path', 'info/exclude']);
    if (info.status !== 0) return;
    const [top, excludeRaw] = info.out.split('\n');
    if (!top || !excludeRaw) return;
    if (git(launchDir, env, ['check-ignore', '-q', '.claude/status.md']).status === 0) return;
    const rel = relative(top, launchDir);
    if (rel.startsWith('..') || isAbsolute(rel)) return;
    const line = `${rel === '' ? '' : `/${rel.split(sep).join('/')}`}/.claude/status.md\n`;
    const exclude = resolve(launchDir, excludeRaw);
    mkdirSync(dirname(exclude), { recursive: true });
    let existing = '';
    try {
      existing = readFileSync(exclude, 'utf8');
    } catch {
      // a new file
    }
    appendFileSync(exclude, existing !== '' && !existing.endsWith('\n') ? `\n${line}` : line);
  } catch {
    // ignored by design: an exclude file only adds ignores
  }
}
