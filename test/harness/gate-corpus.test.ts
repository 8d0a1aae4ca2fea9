/**
 * Issue 9's corpus through the real hook entry: every case is one `baton hook PreToolUse
 * --profile eneo` process fed a Claude Code PreToolUse payload, four at a time. Every attack must
 * be denied and every control allowed; a failure lists the cases and what the hook answered.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { ATTACKS, CONTROLS, type GateCase } from './gate-corpus.js';
import { decision, eneoProject, startTask, type EneoProject } from './helpers.js';

const PARALLEL = 4;

function payload(c: GateCase, dir: string): string {
  const text = c.command.replaceAll('@ROOT@', dir);
  const base = { session_id: 'corpus', hook_event_name: 'PreToolUse', cwd: dir, permission_mode: 'default' };
  if (c.tool)
    return JSON.stringify({
      ...base,
      tool_name: c.tool,
      tool_input: {
        file_path: join(dir, text),
        ...(c.tool === 'Write' ? { content: 'x' } : { old_string: 'a', new_string: 'b' }),
      },
    });
  return JSON.stringify({ ...base, tool_name: 'Bash', tool_input: { command: text, description: c.what } });
}

function hook(input: string, dir: string, sandbox: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'PreToolUse', '--profile', 'eneo'], {
      cwd: dir,
      // Attacks without the OS sandbox (the hook alone must deny each); controls with it, as a
      // machine with bubblewrap runs them (test/harness/sandbox.test.ts runs rewrites for real).
      env: cleanEnv({ CLAUDE_PROJECT_DIR: dir, ...(sandbox ? {} : { BATON_SANDBOX: 'off' }) }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function run(cases: readonly GateCase[], p: EneoProject, want: 'deny' | 'allow'): Promise<string[]> {
  const failures: string[] = [];
  for (const phase of ['FREE', 'REFACTOR', 'GREEN', 'RED'] as const) {
    const batch = cases.filter((c) => c.phase === phase);
    if (batch.length === 0) continue;
    assert.equal(p.task(['phase-set', phase]).code, 0);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const c = batch[next++] as GateCase;
        const result = await hook(payload(c, p.dir), p.dir, want === 'allow');
        const d = result.code === 0 ? decision(result) : { kind: `exit ${result.code}`, reason: result.stderr };
        if (d.kind !== want)
          failures.push(
            `[${phase}] ${c.what}: ${c.tool ?? 'Bash'} ${JSON.stringify(c.command)} -> ${d.kind} ${d.reason.split('\n').pop() ?? ''} ${result.stderr.split('\n')[0]}`,
          );
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  }
  return failures;
}

describe('the gate corpus through `baton hook PreToolUse --profile eneo`', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject({
      'tests/test_a.py': 'def test_a(): pass\n',
      'tests/fixture.json': '{"a": 1}\n',
      'src/app.py': 'x = 1\n',
      'backend/src/intric/api.py': 'x = 1\n',
      'backend/tests/test_api.py': 'def test_api(): pass\n',
      'web/__tests__/a.ts': 'x\n',
      'web/a.spec.ts': 'x\n',
      'web/package-lock.json': '{}\n',
      'uv.lock': 'x\n',
      '.env': 'SECRET=1\n',
      '.env.example': 'SECRET=\n',
      '.claude/ratchet/coverage.json': '{}\n',
      'logs/.keep': '',
      'node_modules/dep/tests/test_dep.js': 'x\n',
    });
    symlinkSync('tests', join(p.dir, 'lnk'));
    symlinkSync('src', join(p.dir, 'srclink'));
    mkdirSync(join(p.dir, 'config'));
    symlinkSync('../.env', join(p.dir, 'config', '.env.example'));
    startTask(p);
  });
  after(() => p.cleanup());

  it(`denies all ${ATTACKS.length} attacks`, { timeout: 600_000 }, async () => {
    assert.ok(ATTACKS.length >= 200, `only ${ATTACKS.length} attacks`);
    const failures = await run(ATTACKS, p, 'deny');
    assert.deepEqual(failures, []);
  });

  it(`allows all ${CONTROLS.length} controls`, { timeout: 600_000 }, async () => {
    assert.ok(CONTROLS.length >= 80, `only ${CONTROLS.length} controls`);
    const failures = await run(CONTROLS, p, 'allow');
    assert.deepEqual(failures, []);
  });
});
