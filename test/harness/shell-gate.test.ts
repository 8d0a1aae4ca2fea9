import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decision, eneoProject, startTask } from './helpers.js';

/** Fail closed and its setting, baton's own state, and the messages that say how to proceed. */
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('shell gate: fail closed', () => {
  it('denies a write baton cannot resolve when the command names a protected path, naming the construct and the setting', () => {
    const p = eneoProject({ 'tests/test_a.py': 'x\n' });
    try {
      startTask(p);
      p.task(['phase-set', 'GREEN']);
      // The parser's own verdicts, which come first whether or not the OS sandbox is there.
      p.env.BATON_SANDBOX = 'off';
      const d = decision(p.hook('PreToolUse', bash('echo x > $(echo tests)/h.py')));
      assert.equal(d.kind, 'deny');
      assert.match(d.reason, /cannot tell what this command writes: command substitution \$\(\.\.\.\)/);
      assert.match(d.reason, /"shell": \{"strict": false\}/);
      assert.match(d.reason, /\[baton rule bash-green-tests\]/);
      assert.match(
        decision(p.hook('PreToolUse', bash("python3 -c \"open('tests/h.py', 'w')\""))).reason,
        /a python3 one-liner that may write files/,
      );
      assert.match(decision(p.hook('PreToolUse', bash('eval "$CMD" tests/x'))).reason, /eval of variable \$CMD/);
      delete p.env.BATON_SANDBOX;
      assert.equal(
        decision(p.hook('PreToolUse', bash('tmp=$(mktemp); pytest > "$tmp"'))).kind,
        'allow',
        'names nothing protected',
      );
      p.task(['phase-set', 'REFACTOR']);
      assert.equal(
        decision(p.hook('PreToolUse', bash('echo x > $(echo tests)/h.py'))).kind,
        'allow',
        'tests are not protected in REFACTOR',
      );
    } finally {
      p.cleanup();
    }
  });

  it('"shell": {"strict": false} allows what baton cannot resolve, never a resolved protected write', () => {
    const p = eneoProject({ 'tests/test_a.py': 'x\n' }, { profile: 'eneo', shell: { strict: false } });
    try {
      startTask(p);
      p.task(['phase-set', 'GREEN']);
      assert.equal(decision(p.hook('PreToolUse', bash('echo x > $(echo tests)/h.py'))).kind, 'allow');
      assert.equal(decision(p.hook('PreToolUse', bash("python3 -c \"open('tests/h.py', 'w')\""))).kind, 'allow');
      assert.equal(decision(p.hook('PreToolUse', bash('D=tests; echo x >| $D/h.py'))).kind, 'deny');
    } finally {
      p.cleanup();
    }
  });

  it('a malformed shell setting is a config problem that names the fix', () => {
    const p = eneoProject({}, { profile: 'eneo', shell: { strict: 'yes' } });
    try {
      // A gated call on an invalid config is denied (fail closed), the problem in the reason.
      const d = decision(p.hook('PreToolUse', bash('echo x > .env')));
      assert.equal(d.kind, 'deny');
      assert.match(d.reason, /shell\.strict: expected true or false, found "yes"/);
    } finally {
      p.cleanup();
    }
  });
});

describe("baton's own state", () => {
  it('denies tool and shell writes to the task document, the wave file and .baton/ in every phase, naming the baton command', () => {
    const p = eneoProject();
    try {
      startTask(p);
      for (const phase of ['FREE', 'GREEN']) {
        p.task(['phase-set', phase]);
        const write = decision(
          p.hook('PreToolUse', {
            tool_name: 'Write',
            tool_input: { file_path: join(p.dir, '.claude/state/current-task.json'), content: '{"tdd_phase": "FREE"}' },
          }),
        );
        assert.equal(write.kind, 'deny', phase);
        assert.match(write.reason, /baton task phase-set/);
        assert.match(write.reason, /\[baton rule baton-state\]/);
        assert.match(decision(p.hook('PreToolUse', bash('echo {} > .claude/state/wave.json'))).reason, /baton-state/);
        assert.match(decision(p.hook('PreToolUse', bash('rm -rf .claude/state/.baton'))).reason, /baton-state/);
      }
      assert.equal(
        decision(p.hook('PreToolUse', bash('baton task phase-set REFACTOR && eneo-phase-set GREEN'))).kind,
        'allow',
      );
      assert.equal(decision(p.hook('PreToolUse', bash('cat .claude/state/current-task.json'))).kind, 'allow');
    } finally {
      p.cleanup();
    }
  });

  it('the allow-list does not exempt a symlink whose real target is protected', () => {
    const p = eneoProject({ '.env': 'SECRET=1\n' });
    try {
      startTask(p);
      const link = decision(p.hook('PreToolUse', bash('ln -s .env .env.example')));
      assert.equal(link.kind, 'allow', 'making the link writes .env.example only');
      symlinkSync('.env', join(p.dir, '.env.example'));
      assert.match(
        decision(
          p.hook('PreToolUse', {
            tool_name: 'Write',
            tool_input: { file_path: join(p.dir, '.env.example'), content: 'x' },
          }),
        ).reason,
        /protect-env/,
      );
      assert.match(decision(p.hook('PreToolUse', bash('echo X=1 >> .env.example'))).reason, /bash-protected/);
    } finally {
      p.cleanup();
    }
  });
});
