import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baton } from '../helpers/cli.js';
import { eneoProject, startTask } from './helpers.js';

/** `baton doctor` harness rows. */
describe('baton doctor harness rows', () => {
  it('reports stale lanes, mirror drift, a mirror or wave.json without a task, and a bad config', () => {
    const p = eneoProject();
    try {
      const doctor = () => baton(['doctor', p.dir], { cwd: p.dir, env: p.env }).stdout;
      assert.match(doctor(), /ok\s+baton\.config\.json is valid/);
      assert.match(doctor(), /ok\s+No current-task\.json \(no stale state\)/);
      startTask(p);
      assert.match(
        doctor(),
        /fail\s+stale state for deep lane slug demo\s+baton clear \.claude\/state\/current-task\.json/,
      );
      p.write('.claude/plans/demo.md', '# plan');
      assert.match(doctor(), /ok\s+current-task\.json present \(deep lane\)/);
      p.write('.claude/state/phase', 'GREEN\n');
      assert.match(doctor(), /fail\s+phase mirror drift \(GREEN vs FREE\)\s+eneo-phase-set FREE/);
      // baton task refuses a lane outside the profile's enum now; a legacy file can still hold one
      assert.equal(p.task(['update', '--', '.lane = "sideways"']).code, 1);
      p.write(
        '.claude/state/current-task.json',
        `${JSON.stringify({ ...p.json('.claude/state/current-task.json'), lane: 'sideways' }, null, 2)}\n`,
      );
      assert.match(doctor(), /fail\s+state has unknown lane for slug demo/);
      assert.match(
        doctor(),
        /fail\s+current-task\.json lane: "sideways" is not allowed: expected one of fast, standard, deep/,
      );
      p.task(['wave-start', '1', '2']);
      p.task(['clear']);
      p.write('.claude/state/phase', 'RED\n');
      p.write('.claude/state/wave.json', '{}');
      assert.match(doctor(), /fail\s+phase mirror is RED but there is no current task\s+eneo-phase-set FREE/);
      // The fix column is a command that works: clear keeps the history, where rm would not.
      assert.match(
        doctor(),
        /fail\s+wave\.json present without a current task\s+baton clear \.claude\/state\/wave\.json/,
      );
      assert.equal(baton(['clear', '.claude/state/wave.json'], { cwd: p.dir, env: p.env }).code, 0);
      assert.doesNotMatch(doctor(), /wave\.json present/);
      p.write('baton.config.json', '{"profile": "eneo", "lanes": {"deep": "x"}}');
      assert.match(
        doctor(),
        /fail\s+baton\.config\.json is valid\s+lanes\.deep: expected a list of strings, found "x"/,
      );
    } finally {
      p.cleanup();
    }
  });
});
