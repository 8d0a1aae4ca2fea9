import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir, tempTree } from './fixtures.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'baton.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Environment for CLI processes: no host variables leaking writers or roots into tests, and a TMPDIR
 * of this test process's own, so baton's per-user temp folder (hook log, status line cache, Stop
 * memory, code cache) goes when the test process exits instead of staying in the shared one.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'BATON_ROOT',
    'CLAUDE_PROJECT_DIR',
    'CLAUDE_CODE_SESSION_ID',
    'agent_id',
    'BATON_WRITER',
    'NODE_EXTRA_CA_CERTS',
    'BATON_STORE',
    'BATON_PROJECT',
  ])
    delete env[name];
  // XDG_STATE_HOME: baton serve's answer key (serve/answer-key.ts) goes there, not in the user's home.
  return { ...env, TMPDIR: childTemp(), XDG_STATE_HOME: childTemp(), ...extra };
}

let childTempDir: string | undefined;
function childTemp(): string {
  return (childTempDir ??= tempDir('baton-child-tmp-'));
}

/** The CLI the tests run: bin/baton.js after `node scripts/build.mjs`, or BATON_BIN (a private build). */
export const CLI = process.env.BATON_BIN ?? BIN;

export interface BatonOptions {
  cwd: string;
  /** Added over cleanEnv(), or over `baseEnv` when given. */
  env?: NodeJS.ProcessEnv;
  /** The whole environment to start from instead of cleanEnv() (a goal sandbox's HOME and PATH). */
  baseEnv?: NodeJS.ProcessEnv;
  input?: string;
  /**
   * Kill the process after this long: for tests where the bug would be a command that never
   * ends, so the kill is the failed assertion, not a timing.
   */
  killAfterMs?: number;
}

/**
 * Runs the built CLI as a real process: the one way the tests start `baton` and wait for it (the
 * run and goal helpers adapt their argument order to it).
 */
export function baton(args: string[], options: BatonOptions): RunResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.baseEnv
      ? { ...options.baseEnv, ...options.env }
      : cleanEnv(options.env as Record<string, string> | undefined),
    input: options.input ?? '',
    encoding: 'utf8',
    ...(options.killAfterMs ? { timeout: options.killAfterMs, killSignal: 'SIGKILL' as const } : {}),
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs `baton ARGS` inside this process, through the same error boundary as the built CLI
 * (src/cli/run-cli.ts), with the command's source module: what `npm run test:fast` uses for the
 * CLI's contracts (exit codes, messages, state on disk). A command that reads this process's
 * stdin or starts a server (hook, statusline, mcp, ui, serve, demo) is for baton() instead.
 */
export async function batonInProcess(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string },
): Promise<RunResult> {
  const { runCli } = await import('../../src/cli/run-cli.js');
  const { ALL_DEFINITIONS } = await import('../../src/cli/definitions.js');
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    {
      out: (text) => void (stdout += text),
      err: (text) => void (stderr += text),
      readStdin: () => options.input ?? '',
      env: cleanEnv(options.env),
      cwd: options.cwd,
      script: BIN,
    },
    (name) => import(`../../src/cli/commands/${name}.js`),
    ALL_DEFINITIONS,
  );
  return { code, stdout, stderr };
}

/** Starts the CLI without waiting; resolves with its result. */
export function batonAsync(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function jq(args: string[], input: string): RunResult {
  const result = spawnSync('jq', args, { input, encoding: 'utf8' });
  if (result.error) throw new Error('the jq binary is required for these tests: apt-get install jq');
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The message lines of stderr: a usage error adds the command's usage line after its one line. */
export function messageLines(stderr: string): string[] {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('usage: '));
}

interface TaskProject {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

const ENEO_PROJECT = { 'baton.config.json': '{"profile": "eneo"}', '.git/HEAD': 'ref: refs/heads/main\n' };
const TASK_INIT = ['task', 'init', '--', 'demo', 'deep', '4', 'none', 'appends'];

/** A temp git project on the eneo profile with a task started through `baton task init`. */
export function eneoTaskProject(): TaskProject {
  const tree = tempTree(ENEO_PROJECT);
  return taskProject(tree, baton(TASK_INIT, { cwd: tree.dir, env: { BATON_ROOT: tree.dir } }));
}

/** eneoTaskProject() with `baton task init` run in-process, for the fast tests. */
export async function eneoTaskProjectInProcess(): Promise<TaskProject> {
  const tree = tempTree(ENEO_PROJECT);
  return taskProject(tree, await batonInProcess(TASK_INIT, { cwd: tree.dir, env: { BATON_ROOT: tree.dir } }));
}

function taskProject(tree: { dir: string; cleanup(): void }, init: RunResult): TaskProject {
  if (init.code !== 0) {
    tree.cleanup();
    throw new Error(`task init failed: ${init.stderr}`);
  }
  return { dir: tree.dir, env: { BATON_ROOT: tree.dir }, cleanup: tree.cleanup };
}
