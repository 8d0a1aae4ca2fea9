import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { baton, type RunResult } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

/** A temp Eneo project: baton.config.json selecting the eneo profile, optional task and files. */
export function eneoProject(files: Record<string, string> = {}, config: object = { profile: 'eneo' }) {
  const tree = tempTree({ 'baton.config.json': JSON.stringify(config), '.tmp/.keep': '', ...files });
  // TMPDIR: the Stop hook's memory and the status line cache live in baton's per-user temp folder,
  // which a test keeps inside its own tree, so a run leaves none of them behind.
  const env: Record<string, string> = {
    BATON_ROOT: tree.dir,
    BATON_DEBUG_LOG: join(tree.dir, '.debug.log'),
    TMPDIR: join(tree.dir, '.tmp'),
  };
  return {
    dir: tree.dir,
    env,
    cleanup: tree.cleanup,
    hook(event: string, payload: unknown, extra: string[] = []): RunResult {
      const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
      return baton(['hook', event, ...extra], { cwd: tree.dir, env, input });
    },
    task(args: string[]): RunResult {
      return baton(['task', ...args], { cwd: tree.dir, env });
    },
    read(path: string): string {
      return readFileSync(join(tree.dir, path), 'utf8');
    },
    json(path: string): Record<string, unknown> {
      return JSON.parse(readFileSync(join(tree.dir, path), 'utf8')) as Record<string, unknown>;
    },
    write(path: string, content: string): void {
      mkdirSync(dirname(join(tree.dir, path)), { recursive: true });
      writeFileSync(join(tree.dir, path), content);
    },
  };
}

export type EneoProject = ReturnType<typeof eneoProject>;

export const TASK = '.claude/state/current-task.json';

/** Starts a task through the CLI (init, then optional update), as the Eneo commands do. */
export function startTask(project: EneoProject, expr?: string, slug = 'demo'): void {
  const init = project.task(['init', '--', slug, 'deep', '4', 'none', 'appends']);
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  if (expr) {
    const update = project.task(['update', '--', expr]);
    if (update.code !== 0) throw new Error(`update failed: ${update.stderr}`);
  }
}

/** The decision of a Claude PreToolUse answer: 'deny' with its reason, or 'allow' for no output. */
export function decision(result: RunResult): { kind: 'allow' | 'deny'; reason: string } {
  if (result.stdout.trim() === '') return { kind: 'allow', reason: '' };
  const out = JSON.parse(result.stdout) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  return {
    kind: out.hookSpecificOutput?.permissionDecision === 'deny' ? 'deny' : 'allow',
    reason: out.hookSpecificOutput?.permissionDecisionReason ?? '',
  };
}
