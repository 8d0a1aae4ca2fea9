/**
 * Real files in temp dirs and baton as a real process. The CLI is `bin/baton.js` after
 * `node scripts/build.mjs`; BATON_BIN points elsewhere (a private build) when needed.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baton as run } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BATON_BIN = process.env.BATON_BIN ?? join(REPO, 'bin', 'baton.js');

export interface Sandbox {
  base: string;
  home: string;
  root: string;
  work: string;
  plugin: string;
  scripts: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh HOME, a git work tree, and the compat scripts installed as a plugin's scripts/. */
export function sandbox(options: { git?: boolean } = {}): Sandbox {
  const base = realpathSync(tempDir('baton-goal-'));
  const home = join(base, 'home');
  const work = join(base, 'work', 'app');
  const plugin = join(base, 'marketplace', 'plugins', 'orchestrate');
  const scripts = join(plugin, 'scripts');
  const bin = join(base, 'bin');
  for (const dir of [home, work, scripts, bin, join(base, 'tmp')]) mkdirSync(dir, { recursive: true });
  const compat = join(REPO, 'compat', 'orchestrate');
  for (const name of readdirSync(compat)) copyFileSync(join(compat, name), join(scripts, name));
  writeFileSync(join(bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${BATON_BIN}" "$@"\n`);
  chmodSync(join(bin, 'baton'), 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    GIT_CONFIG_GLOBAL: join(base, 'gitconfig'),
    TMPDIR: join(base, 'tmp'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.BATON_ORCHESTRATE_PLUGIN_ROOT;
  for (const key of Object.keys(env)) if (key.startsWith('STATE_')) delete env[key];
  writeFileSync(join(base, 'gitconfig'), '[user]\n\tname = t\n\temail = t@t\n');
  if (options.git !== false) spawnSync('git', ['init', '-q', work], { env });
  return { base, home, root: join(home, '.claude', 'orchestrate'), work, plugin, scripts, bin, env };
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function result(r: SpawnSyncReturns<string>): Run {
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** `bash <scripts>/<name> args` as the plugin's checks run it. */
export function script(
  box: Sandbox,
  name: string,
  args: string[] = [],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Run {
  return result(
    spawnSync('bash', [join(box.scripts, name), ...args], {
      cwd: options.cwd ?? box.work,
      env: { ...box.env, ...options.env },
      input: options.input ?? '',
      encoding: 'utf8',
    }),
  );
}

/** `baton args` natively (no compat env): test/helpers/cli.ts's baton() in the sandbox's environment. */
export function baton(
  box: Sandbox,
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Run {
  const r = run(args, {
    cwd: options.cwd ?? box.work,
    baseEnv: box.env,
    env: options.env ?? {},
    input: options.input ?? '',
  });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a hook script with a JSON payload; returns the parsed additionalContext or undefined. */
export function hook(
  box: Sandbox,
  name: string,
  payload: unknown,
  env: NodeJS.ProcessEnv = {},
): { run: Run; context: string | undefined; json: any } {
  const run = script(box, name, [], { input: typeof payload === 'string' ? payload : JSON.stringify(payload), env });
  if (run.stderr !== '') throw new Error(`hook wrote to stderr: ${run.stderr}`);
  if (run.status !== 0) throw new Error(`hook exited ${run.status}`);
  if (run.stdout.trim() === '') return { run, context: undefined, json: undefined };
  const json = JSON.parse(run.stdout);
  return { run, context: json.hookSpecificOutput.additionalContext, json };
}

export function tempFile(name: string, content: string | Buffer): string {
  const dir = realpathSync(tempDir('baton-lint-'));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A transcript JSONL under $HOME/.claude/projects/<p>/ from records. */
export function transcript(box: Sandbox, name: string, records: unknown[], extra = ''): string {
  const dir = join(box.home, '.claude', 'projects', 'p');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n' + extra);
  return path;
}

export const prompt = (text: string) => ({ type: 'user', message: { content: text } });
export const bash = (command: string) => ({
  type: 'assistant',
  message: { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
});
export const tool = (name: string, filePath = '') => ({
  type: 'assistant',
  message: { content: [{ type: 'tool_use', name, input: filePath ? { file_path: filePath } : {} }] },
});
