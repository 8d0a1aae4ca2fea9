/**
 * The fail-closed path as a process: `baton hook PreToolUse` in GREEN with no OS sandbox
 * (BATON_SANDBOX=off) allows a shell command harmlessCommand() proves harmless and denies one it
 * cannot, naming the construct.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decision, eneoProject, startTask } from './helpers.js';

const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('PreToolUse without a sandbox in GREEN', () => {
  it('allows cat of a test file and denies python -c with the construct baton could not prove', () => {
    const p = eneoProject({ 'tests/test_a.py': 'def test_a():\n    pass\n', 'src/app.py': '' });
    try {
      p.env.BATON_SANDBOX = 'off';
      startTask(p);
      assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
      assert.deepEqual(decision(p.hook('PreToolUse', bash('cat tests/test_a.py'))), { kind: 'allow', reason: '' });
      assert.deepEqual(decision(p.hook('PreToolUse', bash('grep -rn test_ tests | wc -l'))).kind, 'allow');
      const denied = decision(p.hook('PreToolUse', bash('python -c "print(1)"')));
      assert.equal(denied.kind, 'deny');
      assert.match(denied.reason, /`python` runs a program baton cannot see into/);
      assert.match(decision(p.hook('PreToolUse', bash('sort -otests/test_a.py x'))).reason, /`-o` can write/);
      // Outside a protected phase nothing is proved: the same command is allowed.
      assert.equal(p.task(['phase-set', 'REFACTOR']).code, 0);
      assert.equal(decision(p.hook('PreToolUse', bash('python -c "print(1)"'))).kind, 'allow');
    } finally {
      p.cleanup();
    }
  });
});
