/**
 * Real processes on real temp trees. The CLI is `bin/baton.js` after `node scripts/build.mjs`;
 * BATON_BIN points at another build when needed (as in test/goal).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { baton as run, batonInProcess as runInProcess, CLI, cleanEnv, ROOT, type RunResult } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

export { CLI };
export const SHIM = join(ROOT, 'compat', 'pipeline-state', 'pipeline-state.sh');

export interface Project {
  dir: string;
  /** A folder holding a `baton` wrapper, for PATH. */
  bin: string;
  cleanup(): void;
}

/** A temp project: a `.git` folder marks its root, as `git init` would. */
export function project(files: Record<string, string> = {}): Project {
  const tree = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const dir = realpathSync(tree.dir);
  const bin = join(dir, '.git', 'test-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'baton'), 0o755);
  return { dir, bin, cleanup: tree.cleanup };
}

/** test/helpers/cli.ts's baton(), in the argument order of these tests. */
export function baton(args: string[], cwd: string, env: Record<string, string> = {}): RunResult {
  return run(args, { cwd, env });
}

export function batonAsync(args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs the compat script with bash, `baton` found on PATH as a user would have it. */
export function shim(args: string[], p: Project, env: Record<string, string> = {}): RunResult {
  const result = spawnSync('bash', [SHIM, ...args], {
    cwd: p.dir,
    env: cleanEnv({ PATH: `${p.bin}:${process.env.PATH ?? ''}`, ...env }),
    encoding: 'utf8',
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function state(dir: string, label: string): Record<string, any> {
  return JSON.parse(readFileSync(join(dir, '.ai_log', `session-${label}.json`), 'utf8'));
}

/** Every file under `dir` (but .git) with its content and mtime: "nothing on disk changed". */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const rel = relative(dir, path);
      if (rel === '.git') continue;
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out[rel] = `${stat.mtimeMs}:${readFileSync(path, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}

/** A three-phase contract, as a workflow file would declare it. */
export const CONTRACT_YAML = `# workflow
phases:
  - phase: 0-requirements
    agent: pm
    input: [user_request]
    output: [prd_document]
  - phase: 1-design
    agent: designer
    inputs: [prd_document]
    outputs: [design_spec]
  - phase: 2-build
    agent: backend
    inputs: [prd_document, design_spec]
    outputs: [backend_code]
`;

/** Takes phase 0-requirements of run `r` through start and done as the pm (in-process): the PRD as its output, its log as evidence. */
export async function finishRequirements(dir: string, extra: string[] = []): Promise<void> {
  const start = await batonInProcess(['phase', 'start', 'r', '0-requirements', '--agent', 'pm'], dir);
  if (start.code !== 0) throw new Error(`phase start failed: ${start.stderr}`);
  const done = await batonInProcess(
    [
      'phase',
      'done',
      'r',
      '0-requirements',
      '--output',
      'prd_document=docs/prd/x.md',
      '--evidence',
      '.ai_log/phase-0-pm-prd.md',
      ...extra,
    ],
    dir,
  );
  if (done.code !== 0) throw new Error(`phase done failed: ${done.stderr}`);
}

/** baton() run in-process (test/helpers/cli.ts's batonInProcess), for the fast tests. */
export function batonInProcess(args: string[], cwd: string, env: Record<string, string> = {}): Promise<RunResult> {
  return runInProcess(args, { cwd, env });
}
