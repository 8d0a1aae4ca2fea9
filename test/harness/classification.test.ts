/**
 * Classification fields: allowed values come from `classification` in
 * baton.config.json (the eneo profile sets the Eneo enums); with no configuration any string is
 * accepted. Enforced on init (exit 2) and update (exit 1) through `baton task`, file untouched.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton } from '../helpers/cli.js';
import { eneoProject, TASK } from './helpers.js';

describe('classification', () => {
  it('eneo profile: init refuses bad values with exit 2, naming every bad field; nothing is written', () => {
    const p = eneoProject();
    try {
      const r = p.task(['init', '--', 'demo', 'sideways', '7', 'global', 'none']);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        /^\[state\] classification refuses the write: lane: "sideways" is not allowed: expected one of fast, standard, deep; bracket: 7 is not allowed: expected an integer from 1 to 4; tenancy_impact: "global" is not allowed/,
      );
      assert.equal(existsSync(join(p.dir, TASK)), false);
      assert.equal(p.task(['init', '--', 'demo', 'standard', '1', 'cross', 'schema']).code, 0);
    } finally {
      p.cleanup();
    }
  });

  it('update: exit 1 and the file byte for byte unchanged; digit strings are coerced before the check', () => {
    const p = eneoProject();
    try {
      assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
      const before = p.read(TASK);
      let r = p.task(['update', '--', '.audit_impact = "rewrites"']);
      assert.deepEqual([r.code, r.stdout], [1, '']);
      assert.match(
        r.stderr,
        /^\[state\] classification refuses the write: audit_impact: "rewrites" is not allowed: expected one of none, appends, schema/,
      );
      r = p.task(['update', '--', '.bracket = $b', 'b', '5']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /bracket: 5 is not allowed: expected an integer from 1 to 4/);
      assert.equal(p.read(TASK), before);
      r = p.task(['update', '--', '.bracket = $b', 'b', '2']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(p.json(TASK).bracket, 2);
    } finally {
      p.cleanup();
    }
  });

  it('a project widens an enum or lifts it with null; without configuration anything goes', () => {
    const p = eneoProject(
      {},
      { profile: 'eneo', classification: { lane: ['fast', 'standard', 'deep', 'spike'], tenancy_impact: null } },
    );
    try {
      assert.equal(p.task(['init', '--', 'demo', 'spike', '4', 'planet-wide', 'none']).code, 0);
      assert.equal(p.task(['update', '--', '.audit_impact = "lots"']).code, 1, 'the other Eneo enums still apply');
      writeFileSync(join(p.dir, 'baton.config.json'), '{}');
      const r = p.task(['init', '--', 'other', 'whatever', '99', 'x', 'y']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(p.json(TASK).lane, 'whatever');
      writeFileSync(join(p.dir, 'baton.config.json'), JSON.stringify({ classification: { lane: ['a', 'b'] } }));
      assert.equal(
        p.task(['init', '--', 'third', 'c', '1', 'x', 'y']).code,
        2,
        'a project without a profile configures its own',
      );
    } finally {
      p.cleanup();
    }
  });

  it('the config sections are validated, and the doctor reports a value outside the enums', () => {
    const p = eneoProject(
      {},
      { profile: 'eneo', classification: { lane: 'fast' }, root: { markers: 'x' }, statusline: { costEnv: 'SHOW' } },
    );
    try {
      const doctor = baton(['doctor'], { cwd: p.dir, env: p.env });
      assert.match(
        doctor.stdout,
        /classification\.lane: expected a list of allowed values, an integer range \{"min": 1, "max": 4\}, or null, found "fast"/,
      );
      assert.match(doctor.stdout, /root\.markers: expected a list of strings, found "x"/);
      assert.doesNotMatch(doctor.stdout, /statusline: unknown section/);
      writeFileSync(
        join(p.dir, 'baton.config.json'),
        JSON.stringify({ profile: 'eneo', statusline: { gitTimeoutMs: 0 } }),
      );
      assert.match(
        baton(['doctor'], { cwd: p.dir, env: p.env }).stdout,
        /statusline\.gitTimeoutMs: expected a positive integer, found 0/,
      );
      writeFileSync(
        join(p.dir, 'baton.config.json'),
        JSON.stringify({ profile: 'eneo', statusline: { costEnv: 'SHOW', gitTimeoutMs: 1000 } }),
      );
      p.write(
        TASK,
        `${JSON.stringify({ slug: 'demo', lane: 'deep', bracket: 9, tdd_phase: 'FREE', wave_status: {}, active_agents: [], status: 'in_progress' })}\n`,
      );
      p.write('.claude/plans/demo.md', '# plan\n');
      const rows = baton(['doctor'], { cwd: p.dir, env: p.env }).stdout;
      assert.match(rows, /baton\.config\.json is valid/);
      assert.match(
        rows,
        /fail\s+current-task\.json bracket: 9 is not allowed: expected an integer from 1 to 4\s+eneo-task-update '\.bracket = <allowed value>'/,
      );
      assert.equal(readFileSync(join(p.dir, TASK), 'utf8').includes('"bracket":9'), true);
    } finally {
      p.cleanup();
    }
  });

  it('a statusline section does not switch the hooks off (it used to be an unknown section)', () => {
    const p = eneoProject({}, { profile: 'eneo', statusline: { costEnv: 'SHOW_COST' } });
    try {
      assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
      assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
      const r = p.hook('PreToolUse', {
        tool_name: 'Write',
        tool_input: { file_path: join(p.dir, 'tests/test_x.py'), content: '' },
      });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /"permissionDecision":"deny"/);
      assert.doesNotMatch(r.stdout, /systemMessage/);
    } finally {
      p.cleanup();
    }
  });
});
