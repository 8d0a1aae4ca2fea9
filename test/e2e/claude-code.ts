/**
 * The pinned Claude Code CLI that the end-to-end tests run. It is ~370 MB and only these tests use
 * it, so it is not a devDependency (every `npm ci` and every git-URL install would fetch it): it is
 * installed on first use with `npm ci` from test/e2e/claude-code/ (its own package.json and
 * lockfile) into a cache folder, $BATON_CLAUDE_CODE_DIR or ~/.cache/baton/claude-code-<version>.
 * When that fails the tests fail, loudly: they never skip.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILES = join(import.meta.dirname, 'claude-code');
const VERSION = JSON.parse(readFileSync(join(FILES, 'package.json'), 'utf8')).dependencies[
  '@anthropic-ai/claude-code'
] as string;

export function claudeCodeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BATON_CLAUDE_CODE_DIR) return env.BATON_CLAUDE_CODE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'baton', `claude-code-${VERSION}`);
}

/** The path of the `claude` binary, installed first if it is not there yet. */
export function claudeCode(): string {
  const dir = claudeCodeDir();
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (existsSync(bin)) return bin;
  // Installed beside the cache folder, then renamed into place: a concurrent test file (or an
  // interrupted install) never sees a half-installed one.
  mkdirSync(join(dir, '..'), { recursive: true });
  const temp = mkdtempSync(`${dir}.installing-`);
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(FILES, file), join(temp, file));
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: temp,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    if (npm.status !== 0)
      throw new Error(
        `installing Claude Code ${VERSION} into ${dir} failed (npm ci exit ${npm.status}): ${npm.stderr || npm.error?.message}. The end-to-end tests need it: fix the network or npm, or point BATON_CLAUDE_CODE_DIR at a folder where it is installed.`,
      );
    try {
      renameSync(temp, dir);
    } catch (error) {
      if (!existsSync(bin)) throw error;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`Claude Code ${VERSION} was installed into ${dir} but ${bin} is missing`);
  return bin;
}

// `node --import tsx test/e2e/claude-code.ts`: install it now (.ci/run does, before the tests).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(claudeCode());
