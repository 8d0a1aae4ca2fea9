/**
 * The pinned agent CLIs the end-to-end tests run (Claude Code, Codex, Gemini CLI). Each is hundreds
 * of MB and only these tests use it, so none is a devDependency (every `npm ci` and every git-URL
 * install would fetch them): each is installed on first use with `npm ci` from test/e2e/<host>/
 * (its own package.json and lockfile) into a cache folder, $BATON_<HOST>_DIR or
 * ~/.cache/baton/<host>-<version>. When that fails the tests fail, loudly: they never skip.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PinnedCli {
  /** Folder under test/e2e/ with the package.json and package-lock.json. */
  folder: string;
  /** The npm package. */
  pkg: string;
  /** The binary in node_modules/.bin. */
  bin: string;
  /** The variable that points at an existing install. */
  dirEnv: string;
}

export const CLIS = {
  'claude-code': {
    folder: 'claude-code',
    pkg: '@anthropic-ai/claude-code',
    bin: 'claude',
    dirEnv: 'BATON_CLAUDE_CODE_DIR',
  },
  codex: { folder: 'codex', pkg: '@openai/codex', bin: 'codex', dirEnv: 'BATON_CODEX_DIR' },
  gemini: { folder: 'gemini', pkg: '@google/gemini-cli', bin: 'gemini', dirEnv: 'BATON_GEMINI_DIR' },
} as const satisfies Record<string, PinnedCli>;

export function pinnedVersion(cli: PinnedCli): string {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, cli.folder, 'package.json'), 'utf8'));
  return manifest.dependencies[cli.pkg] as string;
}

export function pinnedDir(cli: PinnedCli, env: NodeJS.ProcessEnv = process.env): string {
  if (env[cli.dirEnv]) return env[cli.dirEnv]!;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'baton', `${cli.folder}-${pinnedVersion(cli)}`);
}

/** The path of the CLI's binary, installed first if it is not there yet. */
export function pinnedCli(cli: PinnedCli): string {
  const dir = pinnedDir(cli);
  const bin = join(dir, 'node_modules', '.bin', cli.bin);
  if (existsSync(bin)) return bin;
  const version = pinnedVersion(cli);
  // Installed beside the cache folder, then renamed into place: a concurrent test file (or an
  // interrupted install) never sees a half-installed one.
  mkdirSync(join(dir, '..'), { recursive: true });
  const temp = mkdtempSync(`${dir}.installing-`);
  try {
    for (const file of ['package.json', 'package-lock.json'])
      copyFileSync(join(import.meta.dirname, cli.folder, file), join(temp, file));
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: temp,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    if (npm.status !== 0)
      throw new Error(
        `installing ${cli.pkg} ${version} into ${dir} failed (npm ci exit ${npm.status}): ${npm.stderr || npm.error?.message}. The end-to-end tests need it: fix the network or npm, or point ${cli.dirEnv} at a folder where it is installed.`,
      );
    try {
      renameSync(temp, dir);
    } catch (error) {
      if (!existsSync(bin)) throw error;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`${cli.pkg} ${version} was installed into ${dir} but ${bin} is missing`);
  return bin;
}

// `node --import tsx test/e2e/pinned-cli.ts codex gemini`: install them now (.ci/run does, before the tests).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  for (const name of process.argv.slice(2)) console.log(pinnedCli(CLIS[name as keyof typeof CLIS]));
