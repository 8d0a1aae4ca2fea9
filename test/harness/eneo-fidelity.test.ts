import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { decision, eneoProject, startTask, type EneoProject } from './helpers.js';

// The Eneo items that are not gates: texts, the prompt audit, Stop and the deny protocol.
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const PROMPTS = '.claude/stats/prompts.jsonl';

describe('texts', () => {
  it('a command-only rule without a message names its pattern, not "Bash on ."', () => {
    const p = eneoProject(
      {},
      { profile: 'eneo', rules: [{ id: 'no-force-push', on: 'bash', command: 'git\\s+push\\s+.*--force' }] },
    );
    try {
      const { kind, reason } = decision(p.hook('PreToolUse', bash('git push origin main --force')));
      assert.equal(kind, 'deny');
      assert.doesNotMatch(reason, / on \./);
      assert.match(
        reason,
        /Blocked by baton rule 'no-force-push': this Bash command matches \/git\\s\+push\\s\+\.\*--force\//,
      );
    } finally {
      p.cleanup();
    }
  });
});

describe('prompt audit', () => {
  it('counts user prompts, not the <task-notification> of a finished background agent', () => {
    const p = eneoProject();
    try {
      startTask(p);
      assert.equal(
        p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'fix the login bug' }).code,
        0,
      );
      const notification =
        '<task-notification>\n<task-id>b1x2</task-id>\n<status>completed</status>\n<summary>Agent "tests" completed</summary>\n<result>DONE|/tmp/a.md</result>\n</task-notification>';
      const r = p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: notification });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
      const lines = p.read(PROMPTS).trim().split('\n');
      assert.equal(lines.length, 1);
      assert.equal(JSON.parse(lines[0] as string).len, 'fix the login bug'.length);
      assert.match(readFileSync(join(p.dir, '.debug.log'), 'utf8'), /task notification; not counted/);
      // A user who merely mentions the tag is still a user.
      p.hook('UserPromptSubmit', { prompt: 'why does <task-notification> show up in my log?' });
      assert.equal(p.read(PROMPTS).trim().split('\n').length, 2);
      assert.ok(existsSync(join(p.dir, PROMPTS)));
    } finally {
      p.cleanup();
    }
  });
});

const stopPayload = (session: string, extra: object = {}) => ({
  hook_event_name: 'Stop',
  session_id: session,
  stop_hook_active: false,
  ...extra,
});
/** The Stop answer: the block reason, or undefined when the stop is allowed. */
function blocked(r: { code: number; stdout: string; stderr: string }): string | undefined {
  assert.equal(r.code, 0, r.stderr);
  if (r.stdout.trim() === '') return undefined;
  const out = JSON.parse(r.stdout) as { decision?: string; reason?: string };
  assert.equal(out.decision, 'block');
  return out.reason;
}
const subagentDone = (id: string, message = `DONE|/tmp/${id}.md`) => ({
  hook_event_name: 'SubagentStop',
  agent_id: id,
  agent_type: 'Explore',
  last_assistant_message: message,
});

describe('Stop: the wave gate', () => {
  it('keeps the main agent from stopping while the wave is incomplete, once per stop, until it is done', () => {
    const p = eneoProject();
    try {
      startTask(p);
      assert.equal(blocked(p.hook('Stop', stopPayload('s1'))), undefined, 'no wave: free to stop');
      assert.equal(p.task(['wave-start', '1', '2', '--agents', '["Explore","Explore"]']).code, 0);
      const reason = blocked(p.hook('Stop', stopPayload('s1')));
      assert.match(reason ?? '', /Wave 1 is not complete: 0\/2 agents reported DONE/);
      assert.equal(
        blocked(p.hook('Stop', stopPayload('s1', { stop_hook_active: true }))),
        undefined,
        'never blocks a continuation',
      );
      p.hook('SubagentStop', subagentDone('a1'));
      assert.match(blocked(p.hook('Stop', stopPayload('s1'))) ?? '', /1\/2 agents/);
      p.hook('SubagentStop', subagentDone('a2'));
      assert.equal(blocked(p.hook('Stop', stopPayload('s1'))), undefined, 'wave ready: free to stop');
    } finally {
      p.cleanup();
    }
  });

  it('names BLOCKED agents; "blocked" gates only on them and "off" never gates', () => {
    const p = eneoProject({}, { profile: 'eneo', stop: { waveGate: 'blocked' } });
    try {
      startTask(p);
      p.task(['wave-start', '1', '2']);
      assert.equal(blocked(p.hook('Stop', stopPayload('s2'))), undefined, 'incomplete but nothing blocked');
      p.hook('SubagentStop', subagentDone('b1', 'BLOCKED|missing acceptance criteria'));
      assert.match(
        blocked(p.hook('Stop', stopPayload('s2'))) ?? '',
        /BLOCKED: b1 \(missing acceptance criteria\)\.[\s\S]*resolve the blocked agents/,
      );
      p.write('baton.config.json', JSON.stringify({ profile: 'eneo', stop: { waveGate: 'off' } }));
      assert.equal(blocked(p.hook('Stop', stopPayload('s3'))), undefined);
    } finally {
      p.cleanup();
    }
  });

  it('the same reason does not block twice in a row', () => {
    const p = eneoProject();
    try {
      startTask(p);
      p.task(['wave-start', '1', '3']);
      assert.ok(blocked(p.hook('Stop', stopPayload('s4'))));
      assert.equal(blocked(p.hook('Stop', stopPayload('s4'))), undefined);
      assert.ok(blocked(p.hook('Stop', stopPayload('s4'))), 'checked afresh after a stop went through');
    } finally {
      p.cleanup();
    }
  });
});

describe('Stop: presets reproducing the Eneo stop-ratchet and typecheck-on-stop hooks', () => {
  const coverage = (percent: number) =>
    JSON.stringify({ files: { 'src/a.py': { summary: { percent_covered: percent } } } });

  it('ratchet: a file under its floor blocks; a missing artifact blocks only once verified', () => {
    const p = eneoProject({
      '.claude/ratchet/coverage.json': '{"src/a.py": 80, "src/gone.py": 90}',
      '.claude/ratchet/.current/coverage.json': coverage(70.5),
    });
    try {
      startTask(p);
      const reason = blocked(p.hook('Stop', stopPayload('r1')));
      assert.match(reason ?? '', /coverage regression: src\/a\.py — floor 80\.0%, actual 70\.5%/);
      assert.doesNotMatch(reason ?? '', /gone/);
      p.write('.claude/ratchet/.current/coverage.json', coverage(80));
      assert.equal(blocked(p.hook('Stop', stopPayload('r1'))), undefined);
      p.write('.claude/ratchet/.current/coverage.json', '');
      assert.equal(
        blocked(p.hook('Stop', stopPayload('r1'))),
        undefined,
        'before verify, a missing artifact is allowed',
      );
      p.task(['update', '--', '.status = "verified"']);
      assert.match(blocked(p.hook('Stop', stopPayload('r1'))) ?? '', /current coverage artifact is missing/);
    } finally {
      p.cleanup();
    }
  });

  it('typecheck: runs the project script when Python files changed and blocks with its errors', () => {
    const script =
      'echo "src/intric/a.py:1:1 - error: bad type" >&2\nfor i in $(seq 20); do echo "line $i" >&2; done\nexit 1\n';
    const p = eneoProject({ 'backend/scripts/typecheck_changed.sh': script, 'backend/src/intric/a.py': 'x = 1\n' });
    const stop = (env: Record<string, string> = {}) =>
      baton(['hook', 'Stop'], {
        cwd: p.dir,
        env: { ...p.env, ...env },
        input: JSON.stringify(stopPayload(`t${Math.random()}`)),
      });
    try {
      startTask(p);
      for (const args of [
        ['init', '-q'],
        ['add', 'baton.config.json'],
        ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'x'],
      ])
        spawnSync('git', args, { cwd: p.dir });
      const reason = blocked(stop());
      assert.match(reason ?? '', /^✗ Type checking failed in 1 file\(s\)\.\n/);
      assert.match(reason ?? '', /error: bad type[\s\S]*\.\.\. and 6 more errors$/);
      assert.equal(blocked(stop({ TYPECHECK_DISABLE: '1' })), undefined);
      assert.equal(blocked(stop({ TYPECHECK_WARN_ONLY: 'true' })), undefined);
      p.write('backend/scripts/typecheck_changed.sh', 'exit 0\n');
      assert.equal(blocked(stop()), undefined);
    } finally {
      p.cleanup();
    }
  });
});

describe('denyProtocol: exit2', () => {
  function green(config: object): EneoProject {
    const p = eneoProject({}, config);
    startTask(p);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    return p;
  }
  const writeTest = (dir: string) => ({
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, 'tests/test_a.py'), content: 'x' },
  });

  it('answers a deny and a Stop block with the reason on stderr and exit 2', () => {
    const p = green({ profile: 'eneo', denyProtocol: 'exit2' });
    try {
      const deny = p.hook('PreToolUse', writeTest(p.dir));
      assert.equal(deny.code, 2);
      assert.equal(deny.stdout, '');
      assert.match(
        deny.stderr,
        /^✗ Blocked: attempted to edit test file during GREEN phase\.\n[\s\S]*\[baton rule gate-green\]\n$/,
      );
      const allow = p.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(p.dir, 'src/a.py') } });
      assert.deepEqual([allow.code, allow.stdout], [0, '']);
      p.task(['wave-start', '1', '1']);
      const stop = p.hook('Stop', stopPayload('x1'));
      assert.equal(stop.code, 2);
      assert.match(stop.stderr, /Wave 1 is not complete/);
    } finally {
      p.cleanup();
    }
  });

  it('JSON stays the default, and an unknown protocol is reported, not guessed', () => {
    const p = green({ profile: 'eneo' });
    try {
      const deny = p.hook('PreToolUse', writeTest(p.dir));
      assert.equal(deny.code, 0);
      assert.equal(decision(deny).kind, 'deny');
      p.write('baton.config.json', JSON.stringify({ profile: 'eneo', denyProtocol: 'exit3' }));
      const bad = p.hook('PreToolUse', writeTest(p.dir));
      assert.equal(bad.code, 0);
      assert.match(
        decision(bad).reason,
        /denyProtocol: expected "json" \(the default\) or "exit2" \(the reason on stderr, exit 2\), found "exit3"/,
      );
    } finally {
      p.cleanup();
    }
  });
});
