import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decision, eneoProject, type EneoProject } from './helpers.js';

/** The `tdd` profile through the CLI as a process: the plugin's task commands' gates, in any project. */
const write = (dir: string, path: string) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(dir, path), content: 'x' },
});
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('the tdd profile', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject({}, { profile: 'tdd' });
    // Classification is Eneo's: a task of any lane starts.
    const init = p.task(['init', '--', 'add-login', 'any-lane', '9', 'x', 'y']);
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => p.cleanup());

  it('RED: tests are written, any src/ folder is closed, and the deny names baton’s command', () => {
    assert.equal(p.task(['phase-set', 'RED']).code, 0);
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'tests/login.test.ts'))).kind, 'allow');
    for (const source of ['src/login.ts', 'packages/web/src/a.py']) {
      const d = decision(p.hook('PreToolUse', write(p.dir, source)));
      assert.equal(d.kind, 'deny', source);
      assert.match(d.reason, /during RED phase[\s\S]*'\/baton:task-phase GREEN'[\s\S]*\[baton rule gate-red\]/);
      assert.doesNotMatch(d.reason, /eneo/);
    }
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'src/__tests__/a.ts'))).kind, 'allow');
    assert.equal(decision(p.hook('PreToolUse', bash('echo x > src/login.ts'))).kind, 'deny');
  });

  it('GREEN: tests are frozen for the edit tools and the shell, source is open', () => {
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    const d = decision(p.hook('PreToolUse', write(p.dir, 'tests/login.test.ts')));
    assert.equal(d.kind, 'deny');
    assert.match(d.reason, /'\/baton:task-phase RED' \(baton task phase-set RED\) to unfreeze/);
    assert.doesNotMatch(d.reason, /eneo/);
    const shell = decision(p.hook('PreToolUse', bash('echo x >| tests/login.test.ts')));
    assert.equal(shell.kind, 'deny');
    assert.match(shell.reason, /\[baton rule bash-green-tests\]/);
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'src/login.ts'))).kind, 'allow');
  });

  it('in every phase: .env, lockfiles and the phase mirror are protected; nothing Eneo-only is', () => {
    assert.equal(p.task(['phase-set', 'FREE']).code, 0);
    for (const path of ['.env', 'package-lock.json', '.claude/state/phase'])
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, path))).kind, 'deny', path);
    for (const path of ['.env.example', 'tests/a.test.ts', 'src/a.ts', '.claude/ratchet/coverage.json'])
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, path))).kind, 'allow', path);
  });

  it('the wave barrier counts a subagent’s DONE| and the Stop gate holds an unfinished wave', () => {
    assert.equal(p.task(['wave-start', '1', '2', '--agents', '["baton:test-writer","baton:test-writer"]']).code, 0);
    const stop = () => p.hook('Stop', { hook_event_name: 'Stop', session_id: 's1', stop_hook_active: false });
    assert.match(stop().stdout, /"decision":"block"/);
    for (const id of ['a1', 'a2'])
      p.hook('SubagentStop', {
        hook_event_name: 'SubagentStop',
        agent_id: id,
        agent_type: 'baton:test-writer',
        last_assistant_message: `DONE|tests/${id}.test.ts`,
      });
    assert.deepEqual(p.json('.claude/state/current-task.json').wave_status, { '1': 'done' });
    assert.equal(stop().stdout, '');
  });
});
