/**
 * `baton serve` as a real process, for the serve tests: started, its first lines read; and the
 * project and payloads they serve.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { baton, BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

export const TASK = '.claude/state/current-task.json';
/** The plugin's hook wrapper: the shell client that asks the server, else judges in process. */
export const WRAPPER = join(ROOT, 'plugin', 'bin', 'baton');
/**
 * This checkout's build (scripts/build-id.mjs), which dist/ and the plugin's bundle share: a planted
 * serve.json must name it for a client to ask the server it names at all.
 */
export const BUILD = readFileSync(join(ROOT, 'plugin', 'dist', 'build-id'), 'utf8').trim();

/** A git project on the eneo profile whose task is in GREEN: test files are frozen. */
export function greenProject() {
  const tree = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
  spawnSync('git', ['init', '-q'], { cwd: tree.dir });
  for (const args of [
    ['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
    ['set', TASK, 'tdd_phase', 'GREEN'],
  ]) {
    const result = baton(args, { cwd: tree.dir });
    assert.equal(result.code, 0, result.stderr);
  }
  return tree;
}

/** A green project with `baton serve` started in it; the project is removed and the server stopped after the test. */
export async function servedGreenProject(t: { after(fn: () => unknown): void }) {
  const p = greenProject();
  t.after(p.cleanup);
  const server = await startServe(p.dir);
  t.after(server.stop);
  return { p, server };
}

/** The PreToolUse payload of a Write of `file` in `dir`, as Claude Code sends it. */
export function writePayload(dir: string, file: string, content = 'x\n'): string {
  return JSON.stringify({
    session_id: 's1',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, file), content },
    cwd: dir,
  });
}

export interface Server {
  /** The first line: `baton serve: http://127.0.0.1:PORT`. */
  url: string;
  /** The second line's URL: the dashboard's login. */
  ui: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM, as a user's Ctrl-C, and its exit code: the server closes on its own path (coverage is written at exit). */
  stop(): Promise<number | null>;
  stderr(): string;
}

export function startServe(
  cwd: string,
  args: string[] = ['--port', '0'],
  env: Record<string, string> = {},
): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const lines = out.split('\n');
      if (lines.length > 2)
        resolve({
          url: lines[0]!,
          ui: lines[1]!.replace(/^baton serve: dashboard /, ''),
          child,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
          stderr: () => err,
        });
    });
    void exited.then((code) => reject(new Error(`baton serve exited ${code}: ${err}`)));
  });
}

export interface ServeFile {
  url: string;
  pid: number;
  token: string;
  version: string;
  build: string;
  ui: string;
}

export function serveFile(dir: string): ServeFile {
  return JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8')) as ServeFile;
}

/** The answer of the project's server (its serve.json) to a PreToolUse hook with this payload. */
export function preToolUse(dir: string, payload: string): Promise<string> {
  const { url, token } = serveFile(dir);
  return new Promise<string>((resolve, reject) => {
    const req = request(
      `${url}/hooks/PreToolUse`,
      { method: 'POST', headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * The plugin's wrapper as a host runs it, asynchronously (a server in this process must be able to
 * answer), in the session's environment. /bin/sh by its path: tests vary PATH.
 */
export function runWrapper(
  dir: string,
  args: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', [WRAPPER, ...args], {
      cwd: dir,
      env: cleanEnv({ CLAUDE_PROJECT_DIR: dir, ...env }),
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
}

/** What the server's /health says. */
export function health<T>(dir: string): Promise<T> {
  const { url, token } = serveFile(dir);
  return new Promise((resolve, reject) => {
    // A connection of its own: a kept-alive one may be ended by the server while spawnSync blocks this process.
    const req = request(`${url}/health`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as T));
    });
    req.on('error', reject);
    req.end();
  });
}

/** How many hooks the server has answered (its /health count). */
export async function answered(dir: string): Promise<number> {
  return (await health<{ answered: number }>(dir)).answered;
}
