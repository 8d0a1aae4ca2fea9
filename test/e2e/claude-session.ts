/**
 * Running the real Claude Code (pinned: ./claude-code.ts) in a test: an environment with nothing of
 * the developer's account or an enclosing session in it, a session under -p against the scripted
 * model (./mock-model.ts), and what the model was sent back for each tool call.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '../helpers/fixtures.js';
import { claudeCode } from './claude-code.js';
import type { MockModel } from './mock-model.js';

export const CLAUDE = claudeCode();

/** The API key every session is given; the scripted model takes any. */
const API_KEY = 'sk-test';

export interface Session {
  code: number | null;
  stdout: string;
  stderr: string;
  result: any;
}

export function claudeEnv(home: string, model?: MockModel): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of an enclosing Claude Code session or of the developer's account leaks in.
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(CLAUDE|ANTHROPIC_|BATON_|NODE_EXTRA_CA_CERTS$)/.test(key)) env[key] = value;
  }
  // Claude Code keeps per-project folders under $TMPDIR/claude-<uid>: inside HOME they go with it.
  const tmp = join(home, '.tmp');
  mkdirSync(tmp, { recursive: true });
  Object.assign(env, {
    HOME: home,
    TMPDIR: tmp,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
  });
  if (model) env.ANTHROPIC_BASE_URL = model.url;
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
  return env;
}

/**
 * A project the real CLI trusts: `files` under project/, a git repository, and a HOME whose
 * .claude.json has onboarding done and the project's trust dialog accepted.
 */
export function trustedProject(files: Record<string, string> = {}) {
  const tree = tempTree(Object.fromEntries(Object.entries(files).map(([path, text]) => [`project/${path}`, text])));
  const project = join(tree.dir, 'project');
  const home = join(tree.dir, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home);
  spawnSync('git', ['init', '-q'], { cwd: project });
  trust(home, project);
  return { ...tree, project, home };
}

/**
 * Writes HOME's .claude.json: onboarding done and `project` trusted. `approveKey` also approves the
 * environment's API key, which the interactive UI asks about once (a session under -p never asks).
 */
export function trust(home: string, project: string, approveKey = false): void {
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      ...(approveKey ? { customApiKeyResponses: { approved: [API_KEY], rejected: [] } } : {}),
      projects: { [project]: { hasTrustDialogAccepted: true } },
    }),
  );
}

/** The arguments of a session under -p: `prompt`, the answer as JSON, no permission asked; then `extra`. */
export function printArgs(prompt: string, ...extra: string[]): string[] {
  return ['-p', prompt, '--output-format', 'json', '--permission-mode', 'bypassPermissions', ...extra];
}

export function runClaude(cwd: string, env: NodeJS.ProcessEnv, args: string[], timeoutMs = 60_000): Promise<Session> {
  return new Promise((resolve) => {
    const child = spawn(CLAUDE, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      let result: any;
      try {
        result = JSON.parse(stdout);
      } catch {
        result = undefined;
      }
      resolve({ code, stdout, stderr, result });
    });
  });
}

export function session(
  cwd: string,
  home: string,
  model: MockModel,
  prompt: string,
  extra: string[] = [],
): Promise<Session> {
  return runClaude(cwd, claudeEnv(home, model), printArgs(prompt, ...extra));
}

/** Every tool_result block the model was sent, by tool_use id. */
export function toolResults(model: MockModel): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const request of model.turns()) {
    for (const message of request.body.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type !== 'tool_result') continue;
        const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
        results.set(block.tool_use_id, { text, isError: block.is_error === true });
      }
    }
  }
  return results;
}

/**
 * The interactive UI under a pseudo-terminal (Python's pty: the status line runs only there, not
 * under -p), read until every needle has been drawn; then the session is killed. Prints what the
 * terminal showed; exits 1 when the session ended first.
 */
const PTY_DRIVER = String.raw`
import os, pty, re, signal, sys
needles = [n.encode() for n in sys.argv[1].split('|')]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
# With CI set, the UI moves the cursor where it would print spaces (ESC [ n C forward, ESC [ n G to a
# column between words): the terminal shows spaces there.
forward = re.compile(rb'\x1b\[(\d*)C')
column = re.compile(rb'\x1b\[\d*G')
def shown(raw):
    return column.sub(b' ', forward.sub(lambda m: b' ' * int(m.group(1) or b'1'), raw))
seen = b''
while not all(n in shown(seen) for n in needles):
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    seen += data
os.kill(pid, signal.SIGKILL)
sys.stdout.buffer.write(shown(seen))
sys.exit(0 if all(n in shown(seen) for n in needles) else 1)
`;

/** The interactive UI run until every needle was drawn (code 0) or it ended (1), with what it drew. */
export function drawUntil(
  cwd: string,
  env: NodeJS.ProcessEnv,
  needles: string[],
  args: string[],
  timeoutMs = 90_000,
): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', ['-c', PTY_DRIVER, needles.join('|'), CLAUDE, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let screen = '';
    child.stdout.on('data', (chunk) => (screen += chunk));
    // The driver, and the session under it, end when a needle never comes (a hang guard only).
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}
