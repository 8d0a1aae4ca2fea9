import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { eneoProject, startTask } from './helpers.js';

/** `baton doctor` harness rows. */
describe('baton doctor harness rows', () => {
  it('a task file that is not valid JSON: repair where history can restore it, by hand where none can', () => {
    const p = eneoProject();
    try {
      const doctor = () => baton(['doctor', p.dir], { cwd: p.dir, env: p.env });
      startTask(p);
      p.write('.claude/state/current-task.json', '{"slug": "demo",,');
      assert.match(
        doctor().stdout,
        /fail\s+current-task\.json is not valid JSON\s+baton doctor --repair restores its last good revision \(the bad file is kept aside\)/,
      );
      assert.equal(
        baton(['doctor', '--repair', p.dir], { cwd: p.dir, env: p.env }).code,
        1,
        'the plan is still missing',
      );
      assert.equal(p.json('.claude/state/current-task.json').slug, 'demo', 'the repair the row named worked');

      // A task file baton never wrote has no history: --repair cannot help, and neither row says it can.
      const q = eneoProject({ '.claude/state/current-task.json': '{"slug": "demo",,' });
      try {
        const report = baton(['doctor', q.dir], { cwd: q.dir, env: q.env }).stdout;
        assert.match(
          report,
          /fail\s+current-task\.json is not valid JSON\s+no history to restore it from: fix the JSON by hand, or move it aside \(mv \.claude\/state\/current-task\.json \.claude\/state\/current-task\.json\.bad\) and baton task clear/,
        );
        assert.doesNotMatch(report, /--repair/);
        const update = q.task(['update', '--', '.x = 1']);
        assert.equal(update.code, 1);
        assert.match(update.stderr, /no history to restore from: fix the JSON by hand/);
        assert.doesNotMatch(update.stderr, /--repair/);
        assert.equal(q.read('.claude/state/current-task.json'), '{"slug": "demo",,', 'never wiped');
      } finally {
        q.cleanup();
      }
    } finally {
      p.cleanup();
    }
  });

  it('reports stale lanes, mirror drift, a mirror or wave.json without a task, and a bad config', () => {
    const p = eneoProject();
    try {
      const doctor = () => baton(['doctor', p.dir], { cwd: p.dir, env: p.env }).stdout;
      assert.match(doctor(), /ok\s+baton\.config\.json is valid/);
      assert.match(doctor(), /ok\s+No current-task\.json \(no stale state\)/);
      startTask(p);
      // A task just created has no plan yet: the row names the files to write, not "stale state".
      assert.match(
        doctor(),
        /fail\s+deep lane task demo has none of \.claude\/plans\/demo\.md, \.claude\/prds\/demo\.md\s+write \.claude\/plans\/demo\.md or \.claude\/prds\/demo\.md \(what the deep lane works from\); if the task is abandoned, baton task clear$/m,
      );
      p.write('.claude/plans/demo.md', '# plan');
      assert.match(doctor(), /ok\s+current-task\.json present \(deep lane\)/);
      // The barrier leaves a wave.json it cannot read alone and says "run baton doctor": the doctor names it.
      p.write('.claude/state/wave.json', '{"wave": 1,');
      assert.match(
        doctor(),
        /fail\s+wave\.json is not a JSON object \(the wave barrier counts nothing into it\)\s+baton task wave-start WAVE EXPECTED rewrites it/,
      );
      assert.equal(p.task(['wave-start', '1', '2']).code, 0);
      assert.doesNotMatch(doctor(), /wave\.json is not/);
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
      // The fix column is a command that works.
      assert.match(
        doctor(),
        /fail\s+wave\.json present without a current task\s+baton task clear \(removes \.claude\/state\/wave\.json\)/,
      );
      assert.equal(p.task(['clear']).code, 0);
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

  it('an oversize phase mirror is a failing row naming the file, its bound and the fix; the other checks still run', () => {
    const p = eneoProject();
    try {
      startTask(p);
      p.write('.claude/plans/demo.md', '# plan');
      p.write('.claude/state/phase', '');
      truncateSync(join(p.dir, '.claude/state/phase'), 2 * 1024 * 1024);
      const r = baton(['doctor', p.dir], { cwd: p.dir, env: p.env });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, '');
      assert.match(
        r.stdout,
        /^fail\s+\.claude\/state\/phase is a regular file within its read bound\s+.*\.claude\/state\/phase is larger than 1 MiB, the most baton reads of it; .*mv \.claude\/state\/phase \.claude\/state\/phase\.bad, then eneo-phase-set PHASE writes it again$/m,
      );
      assert.match(r.stdout, /ok\s+baton\.config\.json is valid/);
      assert.match(r.stdout, /ok\s+current-task\.json present \(deep lane\)/);
      assert.doesNotMatch(r.stdout, /phase mirror drift/);
    } finally {
      p.cleanup();
    }
  });
});

describe('baton doctor: will the other hosts run the hooks', () => {
  it('codex: project trust in $CODEX_HOME/config.toml; gemini: folder trust and auth type, each with the fix', () => {
    const p = eneoProject({ '.git/HEAD': 'ref: refs/heads/main\n' });
    try {
      const home = join(p.dir, 'home');
      const env = { ...p.env, HOME: home, CODEX_HOME: join(home, 'codex') };
      for (const host of ['codex', 'gemini']) assert.equal(baton(['install', host], { cwd: p.dir, env }).code, 0);
      const doctor = () => baton(['doctor', p.dir], { cwd: p.dir, env }).stdout;
      let report = doctor();
      assert.match(report, /fail\s+codex: project trusted in .*config\.toml.*\s+run `codex exec --trust` here once/);
      assert.match(report, /codex: hook trust is not visible to baton/);
      assert.match(report, /fail\s+gemini: folder trusted.*\s+trust the folder when Gemini CLI asks/);
      assert.match(report, /fail\s+gemini: auth type chosen\s+choose one/);
      mkdirSync(join(home, 'codex'), { recursive: true });
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        join(home, 'codex', 'config.toml'),
        `[projects.${JSON.stringify(p.dir)}]\ntrust_level = "trusted"\n`,
      );
      writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [p.dir]: 'TRUST_FOLDER' }));
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
      );
      report = doctor();
      assert.doesNotMatch(report, /fail\s+(codex|gemini)/);
      assert.match(report, /gemini: auth type chosen \(gemini-api-key\)/);
    } finally {
      p.cleanup();
    }
  });
});
