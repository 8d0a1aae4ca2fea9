import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton } from '../helpers/cli.js';
import { eneoProject, startTask, TASK } from './helpers.js';

/** SessionStart, UserPromptSubmit, PreCompact, Stop, SessionEnd and garbage, as real processes. */
describe('SessionStart', () => {
  it('prints one resume line read field by field; empty fields do not shift the others', () => {
    const p = eneoProject({ '.claude/rules/eneo-context.md': 'a\nb\nc\n' });
    try {
      startTask(p, '.phase = null | .phase_total = 2 | .wave = 1 | .wave_total = 2 | .next_hint = "/eneo-verify"');
      p.task(['phase-set', 'GREEN']);
      const r = p.hook('SessionStart', { hook_event_name: 'SessionStart', source: 'startup' });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, 'Resume: demo · Wave 1/2 · GREEN · Next: /eneo-verify\n');
      assert.match(r.stderr, /\[eneo-context\] loaded eneo-context\.md \(3 lines\) from .*eneo-context\.md/);
      assert.match(r.stderr, /\[eneo-context\] current TDD phase: GREEN/);
      p.task(['update', '--', '.phase = 0 | .wave = null | .next_hint = ""']);
      p.task(['phase-set', 'FREE']);
      const compact = p.hook('SessionStart', { source: 'compact' });
      assert.equal(compact.stdout, 'Resume: demo · Phase 0/2\n');
      assert.doesNotMatch(compact.stderr, /current TDD phase/);
    } finally {
      p.cleanup();
    }
  });

  it('prints nothing without a task, with an empty slug, or with a broken task file; garbage stdin is {}', () => {
    const p = eneoProject();
    try {
      assert.deepEqual(p.hook('SessionStart', {}).stdout, '');
      p.write(TASK, '{"slug": "", "tdd_phase": "GREEN"}');
      assert.equal(p.hook('SessionStart', 'not json').stdout, '');
      p.write(TASK, '{"slug": "x",');
      const broken = p.hook('SessionStart', '');
      assert.deepEqual([broken.code, broken.stdout], [0, '']);
    } finally {
      p.cleanup();
    }
  });
});

describe('UserPromptSubmit audit', () => {
  it('appends ts/slug/hash/len (never the prompt) and refreshes the stamp', () => {
    const p = eneoProject();
    try {
      startTask(p);
      p.task(['update', '--', '.next_hint = "x"']);
      const prompt = 'fix the flaky test ✓\n\n';
      const r = p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt });
      assert.deepEqual([r.code, r.stdout], [0, '']);
      assert.match(r.stderr, /\[eneo-audit\] current slug: demo \(phase=FREE\)/);
      const lines = p.read('.claude/stats/prompts.jsonl').trimEnd().split('\n');
      assert.equal(lines.length, 1);
      const record = JSON.parse(lines[0] as string) as Record<string, unknown>;
      assert.deepEqual(Object.keys(record), ['ts', 'slug', 'hash', 'len']);
      assert.equal(record.slug, 'demo');
      assert.equal(record.hash, createHash('sha256').update('fix the flaky test ✓').digest('hex').slice(0, 16));
      assert.equal(record.len, 20);
      assert.doesNotMatch(p.read('.claude/stats/prompts.jsonl'), /flaky/);
      assert.equal(p.hook('UserPromptSubmit', { user_prompt: 'second' }).code, 0);
      assert.equal(p.read('.claude/stats/prompts.jsonl').trimEnd().split('\n').length, 2);
    } finally {
      p.cleanup();
    }
  });

  it('creates nothing in a project without a task, and keeps the log bounded at 2000 lines', () => {
    const p = eneoProject();
    try {
      const r = p.hook('UserPromptSubmit', { prompt: 'hello' });
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.equal(existsSync(join(p.dir, '.claude')), false);
      p.write('.claude/stats/prompts.jsonl', `${'{"old":1}\n'.repeat(2000)}`);
      p.hook('UserPromptSubmit', { prompt: 'hello' });
      const lines = p.read('.claude/stats/prompts.jsonl').trimEnd().split('\n');
      assert.equal(lines.length, 2000);
      assert.match(lines[1999] as string, /"slug":"","hash":"[0-9a-f]{16}","len":5/);
      assert.equal(existsSync(join(p.dir, '.claude/state')), false);
    } finally {
      p.cleanup();
    }
  });
});

describe('PreCompact, Stop, SessionEnd', () => {
  it('PreCompact records a task revision and snapshots the phase scratchpad', () => {
    const p = eneoProject({ '.claude/phases/demo/phase-01-scratchpad/notes.md': 'remember this\n' });
    try {
      startTask(p);
      const r = p.hook('PreCompact', { hook_event_name: 'PreCompact', trigger: 'auto' });
      assert.equal(r.code, 0);
      assert.match(r.stderr, /\[pre-compact\] task document saved as revision 2/);
      const [snapshot] = readdirSync(join(p.dir, '.claude/context'));
      assert.match(snapshot ?? '', /^demo-\d{8}T\d{6}Z\.md$/);
      const body = p.read(`.claude/context/${snapshot}`);
      assert.match(
        body,
        /^# Scratchpad snapshot — slug: demo, timestamp: \d{8}T\d{6}Z\n\nCaptured at PreCompact\. Source: .*phase-01-scratchpad\n\n## notes\.md\n\n```\nremember this\n```\n/,
      );
      const history = baton(['history', TASK, '--json'], { cwd: p.dir, env: p.env });
      assert.match(history.stdout, /"writer":"pre-compact"/);
    } finally {
      p.cleanup();
    }
  });

  it("Gemini's PreCompress, fired before every model call: one revision and one scratchpad snapshot until something changes", () => {
    const p = eneoProject({ '.claude/phases/demo/phase-01-scratchpad/notes.md': 'remember this\n' });
    try {
      startTask(p);
      const compress = () =>
        p.hook('PreCompress', { hook_event_name: 'PreCompress', trigger: 'auto' }, ['--host', 'gemini']);
      assert.match(compress().stderr, /task document saved as revision 2/);
      for (let i = 0; i < 3; i++) {
        const r = compress();
        assert.match(r.stderr, /task document unchanged since revision 2/);
        assert.match(r.stderr, /scratchpad unchanged since/);
      }
      assert.equal(readdirSync(join(p.dir, '.claude/context')).length, 1);
      p.task(['phase-set', 'GREEN']);
      p.write('.claude/phases/demo/phase-01-scratchpad/notes.md', 'remember that\n');
      const changed = compress();
      assert.match(changed.stderr, /task document saved as revision 4/);
      assert.match(changed.stderr, /snapshotted scratchpad/);
      const history = baton(['history', TASK, '--json'], { cwd: p.dir, env: p.env });
      assert.equal(history.stdout.match(/"writer":"pre-compact"/g)?.length, 2);
    } finally {
      p.cleanup();
    }
  });

  it('PreCompact also records a revision of every run of the run bus (.ai_log/session-*.json)', () => {
    const p = eneoProject();
    try {
      for (const label of ['alpha', 'beta'])
        assert.equal(baton(['run', 'init', label], { cwd: p.dir, env: p.env }).code, 0);
      p.write('.ai_log/notes.json', '{}');
      const r = p.hook('PreCompact', { hook_event_name: 'PreCompact', trigger: 'manual' });
      assert.equal(r.code, 0);
      assert.match(
        r.stderr,
        /\[pre-compact\] \.ai_log\/session-alpha\.json saved as revision 2\n\[pre-compact\] \.ai_log\/session-beta\.json saved as revision 2\n/,
      );
      for (const label of ['alpha', 'beta']) {
        const history = baton(['history', `.ai_log/session-${label}.json`, '--json'], { cwd: p.dir, env: p.env });
        assert.match(history.stdout, /"writer":"pre-compact"/, label);
      }
      assert.doesNotMatch(
        baton(['history', '.ai_log/notes.json', '--json'], { cwd: p.dir, env: p.env }).stdout,
        /pre-compact/,
      );
    } finally {
      p.cleanup();
    }
  });

  it('Stop runs the verification commands, blocks once, honours stop_hook_active and never repeats a block', () => {
    const p = eneoProject(
      {},
      {
        profile: 'eneo',
        stop: { commands: [{ name: 'lint', run: 'test -f ok.txt || { echo "lint: 3 problems"; exit 1; }' }] },
      },
    );
    try {
      const first = p.hook('Stop', { session_id: 's1', stop_hook_active: false });
      const out = JSON.parse(first.stdout) as { decision: string; reason: string };
      assert.equal(out.decision, 'block');
      assert.match(out.reason, /Verification 'lint' failed \(exit 1\)[\s\S]*lint: 3 problems/);
      assert.equal(p.hook('Stop', { session_id: 's1', stop_hook_active: true }).stdout, '');
      // The continuation did not block, so the next turn's Stop is checked afresh: a check that
      // still fails blocks again (a remembered reason would let every other turn through).
      assert.equal(
        (JSON.parse(p.hook('Stop', { session_id: 's1', stop_hook_active: false }).stdout) as { decision: string })
          .decision,
        'block',
      );
      // A host that never sets stop_hook_active: the immediate repeat is let through once.
      const again = p.hook('Stop', { session_id: 's1', stop_hook_active: false });
      assert.equal(again.stdout, '', 'the same reason never blocks twice in a row');
      assert.match(again.stderr, /not blocking twice in a row/);
      p.write('ok.txt', '');
      assert.equal(p.hook('Stop', { session_id: 's1' }).stdout, '');
    } finally {
      p.cleanup();
    }
  });

  it('events the profile does not handle exit 0 with no output and touch nothing', () => {
    const p = eneoProject();
    try {
      startTask(p);
      for (const event of ['SessionEnd', 'PostToolUse', 'Notification', 'Stop']) {
        const r = p.hook(event, { reason: 'other' });
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], event);
      }
      assert.equal(existsSync(join(p.dir, '.debug.log')), false);
    } finally {
      p.cleanup();
    }
  });

  it('garbage stdin on an ungated deciding event exits 0 silently and logs why', () => {
    const p = eneoProject();
    try {
      startTask(p);
      p.task(['phase-set', 'GREEN']);
      for (const input of ['garbage', '[1,2]', '', '{"tool_name":', 'null']) {
        const r = p.hook('SubagentStop', input);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], JSON.stringify(input));
      }
      assert.match(p.read('.debug.log'), /SubagentStop stdin was not a JSON object; nothing to decide, exiting 0/);
    } finally {
      p.cleanup();
    }
  });
});
