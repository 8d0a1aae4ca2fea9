import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { openDoc } from '../../src/doc/open.js';
import { batonInProcess } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

/**
 * The harness rows of `baton doctor` (harness/harness-doctor.ts) on real broken setups, run
 * in-process through the CLI's own error boundary: each row a user reads, and the fix it names.
 */

const TASK = '.claude/state/current-task.json';
const ENEO_TASK = { slug: 'demo', lane: 'fast', bracket: 1, tenancy_impact: 'none', audit_impact: 'none' };

function project(config: unknown = { profile: 'eneo' }) {
  const tree = tempTree({
    'baton.config.json': typeof config === 'string' ? config : JSON.stringify(config),
    '.tmp/.keep': '',
  });
  // No bubblewrap on this PATH: the sandbox row is decided without starting one.
  const env: Record<string, string> = { BATON_ROOT: tree.dir, TMPDIR: join(tree.dir, '.tmp'), PATH: '/nonexistent' };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(tree.dir, path)), { recursive: true });
    writeFileSync(join(tree.dir, path), text);
  };
  const doctor = async (extra: Record<string, string> = {}) => {
    const result = await batonInProcess(['doctor', tree.dir], { cwd: tree.dir, env: { ...env, ...extra } });
    return { ...result, rows: result.stdout.split('\n') };
  };
  /** The row whose check matches, as `ok|fail|warn  check  fix` with runs of spaces made one. */
  const row = (rows: string[], check: RegExp) => rows.find((line) => check.test(line))?.replace(/\s{2,}/g, '  ');
  const task = (args: string[]) => batonInProcess(['task', ...args], { cwd: tree.dir, env });
  const read = (path: string) => readFileSync(join(tree.dir, path), 'utf8');
  /** A deep lane task, as `eneo-task-init demo deep 4 none appends` starts it. */
  const startTask = async () => {
    const init = await task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']);
    assert.equal(init.code, 0, init.stderr);
  };
  return { dir: tree.dir, env, write, doctor, row, task, read, startTask, cleanup: tree.cleanup };
}

describe('baton doctor, harness rows', () => {
  it('a config that does not parse or validate is one failing row naming the problem; nothing else is checked', async (t) => {
    const p = project('{"profile": "eneo",');
    t.after(p.cleanup);
    const broken = await p.doctor();
    assert.equal(broken.code, 1);
    assert.match(
      p.row(broken.rows, /baton\.config\.json loads/) ?? '',
      /^fail {2}baton\.config\.json loads {2}.*baton\.config\.json/,
    );
    assert.equal(p.row(broken.rows, /current-task/), undefined);

    p.write(
      'baton.config.json',
      JSON.stringify({ profile: 'eneo', requiredFiles: 'README.md', wave: { file: 3, lockTimeoutMs: 1 } }),
    );
    const invalid = await p.doctor();
    assert.equal(
      p.row(invalid.rows, /is valid/),
      'fail  baton.config.json is valid  wave.file: expected string, found 3; requiredFiles: expected a list of strings, found "README.md"',
    );
  });

  it('a mirror or wave.json without a task, and a task that is JSON but not an object', async (t) => {
    const p = project();
    t.after(p.cleanup);
    p.write('.claude/state/phase', 'GREEN\n');
    p.write('.claude/state/wave.json', '{}');
    const { rows } = await p.doctor();
    assert.equal(p.row(rows, /No current-task/), 'ok  No current-task.json (no stale state)  —');
    assert.equal(
      p.row(rows, /phase mirror is/),
      'fail  phase mirror is GREEN but there is no current task  eneo-phase-set FREE',
    );
    assert.equal(
      p.row(rows, /wave\.json present/),
      'fail  wave.json present without a current task  baton task clear (removes .claude/state/wave.json)',
    );

    p.write(TASK, '[1, 2]');
    assert.equal(
      p.row((await p.doctor()).rows, /current-task\.json is not/),
      'fail  current-task.json is not a JSON object  fix the JSON by hand, or baton task clear drops the task (the file is not kept)',
    );
  });

  it('a task file that does not parse: restored by --repair where history has it, by hand where none does', async (t) => {
    const p = project();
    t.after(p.cleanup);
    p.write(TASK, '{"slug": "demo",,');
    assert.equal(
      p.row((await p.doctor()).rows, /not valid JSON/),
      'fail  current-task.json is not valid JSON  no history to restore it from: fix the JSON by hand, or move it aside (mv .claude/state/current-task.json .claude/state/current-task.json.bad) and baton task clear',
    );
    const q = project();
    t.after(q.cleanup);
    await openDoc(TASK, { cwd: q.dir, env: q.env }).init(ENEO_TASK);
    q.write(TASK, '{"slug": "demo",,');
    assert.equal(
      q.row((await q.doctor()).rows, /not valid JSON/),
      'fail  current-task.json is not valid JSON  baton doctor --repair restores its last good revision (the bad file is kept aside)',
    );
  });

  it('with a task: a wave.json that is not an object, and a profile without lanes', async (t) => {
    const p = project({ profile: 'tdd' });
    t.after(p.cleanup);
    p.write(TASK, JSON.stringify({ slug: 'demo', tdd_phase: 'RED' }));
    p.write('.claude/state/phase', 'RED\n');
    p.write('.claude/state/wave.json', '[]');
    const { rows } = await p.doctor({ BATON_SANDBOX: 'off' });
    assert.equal(p.row(rows, /current-task\.json present/), 'ok  current-task.json present  —');
    assert.equal(
      p.row(rows, /wave\.json is not/),
      'fail  wave.json is not a JSON object (the wave barrier counts nothing into it)  baton task wave-start WAVE EXPECTED rewrites it (agents already counted are lost with it)',
    );
    assert.equal(p.row(rows, /drift/), undefined, 'mirror and task agree');
  });

  it('a task with a value outside the classification, a lane that is unknown or has its files, and mirror drift', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await openDoc(TASK, { cwd: p.dir, env: p.env }).init({ ...ENEO_TASK, tdd_phase: 'RED' });
    p.write(TASK, JSON.stringify({ ...ENEO_TASK, bracket: 9, tdd_phase: 'RED' }));
    const { rows } = await p.doctor();
    assert.match(
      p.row(rows, /bracket/) ?? '',
      /^fail {2}current-task\.json bracket: .* {2}eneo-task-update '\.bracket = <allowed value>' \(or re-init the task\)$/,
    );
    assert.equal(p.row(rows, /current-task\.json present/), 'ok  current-task.json present (fast lane)  —');
    assert.equal(p.row(rows, /drift/), 'fail  phase mirror drift (FREE vs RED)  eneo-phase-set RED');

    // A standard lane task names its spec folder; once there, the row is ok.
    p.write(TASK, JSON.stringify({ ...ENEO_TASK, lane: 'standard' }));
    assert.match(
      p.row((await p.doctor()).rows, /standard lane/) ?? '',
      /^fail {2}standard lane task demo has none of \.claude\/specs\/demo\//,
    );
    p.write('.claude/specs/demo/spec.md', '# spec');
    assert.equal(p.row((await p.doctor()).rows, /standard lane/), 'ok  current-task.json present (standard lane)  —');

    // An unknown lane is stale only when the task has a slug.
    p.write(TASK, JSON.stringify({ ...ENEO_TASK, lane: 'sideways' }));
    assert.match(p.row((await p.doctor()).rows, /unknown lane/) ?? '', /set lane to one of fast, standard, deep/);
    p.write(TASK, JSON.stringify({ lane: 'sideways' }));
    assert.equal(p.row((await p.doctor()).rows, /unknown lane/), undefined);
  });

  it('a mirror or wave.json past its read bound is a row of its own, and the other checks go on', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await openDoc(TASK, { cwd: p.dir, env: p.env }).init({ ...ENEO_TASK, tdd_phase: 'GREEN' });
    p.write('.claude/state/phase', '');
    truncateSync(join(p.dir, '.claude/state/phase'), 1024 * 1024 + 1);
    p.write('.claude/state/wave.json', '');
    truncateSync(join(p.dir, '.claude/state/wave.json'), 16 * 1024 * 1024 + 1);
    const { code, rows } = await p.doctor();
    assert.equal(code, 1);
    assert.match(
      p.row(rows, /state\/phase is a regular file/) ?? '',
      /^fail {2}\.claude\/state\/phase is a regular file within its read bound {2}.*; mv \.claude\/state\/phase \.claude\/state\/phase\.bad, then eneo-phase-set PHASE writes it again$/,
    );
    assert.match(p.row(rows, /wave\.json is a regular file/) ?? '', /baton task wave-start WAVE EXPECTED rewrites it$/);
    assert.equal(p.row(rows, /drift/), undefined, 'a mirror that could not be read is not compared');
    assert.ok(p.row(rows, /current-task\.json present/), 'the lane row still ran');
  });

  it('a mirror or wave.json that is there but cannot be read (a link to itself) is said so, with the cause and the fix, not taken for missing', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await openDoc(TASK, { cwd: p.dir, env: p.env }).init({ ...ENEO_TASK, tdd_phase: 'GREEN' });
    for (const file of ['.claude/state/phase', '.claude/state/wave.json']) {
      rmSync(join(p.dir, file), { force: true });
      symlinkSync(join(p.dir, file), join(p.dir, file));
    }
    const { code, rows } = await p.doctor();
    assert.equal(code, 1);
    const loop =
      'cannot be read, so the rule it decides cannot be checked: a symbolic link loops, or the path has too many; put the file itself there \\(ELOOP\\)$';
    assert.match(
      p.row(rows, /state\/phase can be read/) ?? '',
      new RegExp(`^fail  \\.claude/state/phase can be read  phase mirror .*/\\.claude/state/phase ${loop}`),
    );
    assert.match(
      p.row(rows, /wave\.json can be read/) ?? '',
      new RegExp(`^fail  \\.claude/state/wave\\.json can be read  wave file .*/\\.claude/state/wave\\.json ${loop}`),
    );
    assert.equal(p.row(rows, /drift/), undefined, 'a mirror that could not be read is not compared (it is not empty)');
    assert.doesNotMatch(rows.join('\n'), /missing|null vs/);
  });

  it('a state lock left by a dead holder names the file to remove', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const lock = '.claude/state/.locks/state.lock';
    const acquired = Date.now() - 90_000;
    p.write(lock, `2147483646\n${hostname()}\n${acquired}\ntoken\n\n`);
    const old = new Date(acquired);
    utimesSync(join(p.dir, lock), old, old);
    assert.match(
      p.row((await p.doctor()).rows, /state lock/) ?? '',
      /^fail {2}state lock held for (9\d|1\d\d)s by dead or stale owner {2}rm \.claude\/state\/\.locks\/state\.lock$/,
    );
  });

  it('the shell sandbox row, and the files the config requires', async (t) => {
    const p = project({ profile: 'tdd', requiredFiles: ['README.md', 'docs/', 'loop.md'] });
    t.after(p.cleanup);
    p.write('README.md', '# x');
    symlinkSync('loop.md', join(p.dir, 'loop.md'));
    const { rows } = await p.doctor();
    assert.equal(
      p.row(rows, /shell sandbox/),
      'warn  shell sandbox: none -> strict parser fallback (bubblewrap (bwrap) is not on PATH)  install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap) (docs/gates.md)',
    );
    assert.match(
      p.row((await p.doctor({ BATON_SANDBOX: 'off' })).rows, /shell sandbox/) ?? '',
      /none -> strict parser fallback \(BATON_SANDBOX=off\) {2}unset BATON_SANDBOX/,
    );
    assert.equal(p.row(rows, /README\.md present/), 'ok  configured file README.md present  —');
    // There, but a link to itself: not "create it".
    assert.equal(
      p.row(rows, /loop\.md present/),
      `fail  configured file loop.md present  configured file ${join(p.dir, 'loop.md')} cannot be read, so the rule it decides cannot be checked: a symbolic link loops, or the path has too many; put the file itself there (ELOOP)`,
    );
    assert.equal(
      p.row(rows, /docs\/ present/),
      'fail  configured file docs/ present  create docs/ or remove it from baton.config.json',
    );

    // No phase-scoped shell rule: no sandbox row at all.
    p.write('baton.config.json', JSON.stringify({ documents: {} }));
    assert.equal(p.row((await p.doctor()).rows, /shell sandbox/), undefined);
  });
});

describe('baton doctor harness rows, beside the task commands', () => {
  it('a task file that is not valid JSON: repair where history can restore it, by hand where none can', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await p.startTask();
    p.write(TASK, '{"slug": "demo",,');
    assert.match(
      (await p.doctor()).stdout,
      /fail\s+current-task\.json is not valid JSON\s+baton doctor --repair restores its last good revision \(the bad file is kept aside\)/,
    );
    assert.equal(
      (await batonInProcess(['doctor', '--repair', p.dir], { cwd: p.dir, env: p.env })).code,
      1,
      'the plan is still missing',
    );
    assert.equal(JSON.parse(p.read(TASK)).slug, 'demo', 'the repair the row named worked');

    // A task file baton never wrote has no history: --repair cannot help, and neither row says it can.
    const q = project();
    t.after(q.cleanup);
    q.write(TASK, '{"slug": "demo",,');
    const report = (await q.doctor()).stdout;
    assert.match(
      report,
      /fail\s+current-task\.json is not valid JSON\s+no history to restore it from: fix the JSON by hand, or move it aside \(mv \.claude\/state\/current-task\.json \.claude\/state\/current-task\.json\.bad\) and baton task clear/,
    );
    assert.doesNotMatch(report, /--repair/);
    const update = await q.task(['update', '--', '.x = 1']);
    assert.equal(update.code, 1);
    assert.match(update.stderr, /no history to restore from: fix the JSON by hand/);
    assert.doesNotMatch(update.stderr, /--repair/);
    assert.equal(q.read(TASK), '{"slug": "demo",,', 'never wiped');
  });

  it('reports stale lanes, mirror drift, a mirror or wave.json without a task, and a bad config', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const doctor = async () => (await p.doctor()).stdout;
    assert.match(await doctor(), /ok\s+baton\.config\.json is valid/);
    assert.match(await doctor(), /ok\s+No current-task\.json \(no stale state\)/);
    await p.startTask();
    // A task just created has no plan yet: the row names the files to write, not "stale state".
    assert.match(
      await doctor(),
      /fail\s+deep lane task demo has none of \.claude\/plans\/demo\.md, \.claude\/prds\/demo\.md\s+write \.claude\/plans\/demo\.md or \.claude\/prds\/demo\.md \(what the deep lane works from\); if the task is abandoned, baton task clear$/m,
    );
    p.write('.claude/plans/demo.md', '# plan');
    assert.match(await doctor(), /ok\s+current-task\.json present \(deep lane\)/);
    // The barrier leaves a wave.json it cannot read alone and says "run baton doctor": the doctor names it.
    p.write('.claude/state/wave.json', '{"wave": 1,');
    assert.match(
      await doctor(),
      /fail\s+wave\.json is not a JSON object \(the wave barrier counts nothing into it\)\s+baton task wave-start WAVE EXPECTED rewrites it/,
    );
    assert.equal((await p.task(['wave-start', '1', '2'])).code, 0);
    assert.doesNotMatch(await doctor(), /wave\.json is not/);
    p.write('.claude/state/phase', 'GREEN\n');
    assert.match(await doctor(), /fail\s+phase mirror drift \(GREEN vs FREE\)\s+eneo-phase-set FREE/);
    // baton task refuses a lane outside the profile's enum now; a legacy file can still hold one
    assert.equal((await p.task(['update', '--', '.lane = "sideways"'])).code, 1);
    p.write(TASK, `${JSON.stringify({ ...JSON.parse(p.read(TASK)), lane: 'sideways' }, null, 2)}\n`);
    assert.match(await doctor(), /fail\s+state has unknown lane for slug demo/);
    assert.match(
      await doctor(),
      /fail\s+current-task\.json lane: "sideways" is not allowed: expected one of fast, standard, deep/,
    );
    await p.task(['wave-start', '1', '2']);
    await p.task(['clear']);
    p.write('.claude/state/phase', 'RED\n');
    p.write('.claude/state/wave.json', '{}');
    assert.match(await doctor(), /fail\s+phase mirror is RED but there is no current task\s+eneo-phase-set FREE/);
    // The fix column is a command that works.
    assert.match(
      await doctor(),
      /fail\s+wave\.json present without a current task\s+baton task clear \(removes \.claude\/state\/wave\.json\)/,
    );
    assert.equal((await p.task(['clear'])).code, 0);
    assert.doesNotMatch(await doctor(), /wave\.json present/);
    p.write('baton.config.json', '{"profile": "eneo", "lanes": {"deep": "x"}}');
    assert.match(
      await doctor(),
      /fail\s+baton\.config\.json is valid\s+lanes\.deep: expected a list of strings, found "x"/,
    );
  });

  it('an oversize phase mirror is a failing row naming the file, its bound and the fix; the other checks still run', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await p.startTask();
    p.write('.claude/plans/demo.md', '# plan');
    p.write('.claude/state/phase', '');
    truncateSync(join(p.dir, '.claude/state/phase'), 2 * 1024 * 1024);
    const r = await p.doctor();
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(
      r.stdout,
      /^fail\s+\.claude\/state\/phase is a regular file within its read bound\s+.*\.claude\/state\/phase is larger than 1 MiB, the most baton reads of it; .*mv \.claude\/state\/phase \.claude\/state\/phase\.bad, then eneo-phase-set PHASE writes it again$/m,
    );
    assert.match(r.stdout, /ok\s+baton\.config\.json is valid/);
    assert.match(r.stdout, /ok\s+current-task\.json present \(deep lane\)/);
    assert.doesNotMatch(r.stdout, /phase mirror drift/);
  });
});

describe('baton doctor: will the other hosts run the hooks', () => {
  it('codex: project trust in $CODEX_HOME/config.toml; gemini: folder trust and auth type, each with the fix', async (t) => {
    const p = project();
    t.after(p.cleanup);
    p.write('.git/HEAD', 'ref: refs/heads/main\n');
    const home = join(p.dir, 'home');
    const env = { ...p.env, HOME: home, CODEX_HOME: join(home, 'codex') };
    for (const host of ['codex', 'gemini'])
      assert.equal((await batonInProcess(['install', host], { cwd: p.dir, env })).code, 0);
    const doctor = async () => (await batonInProcess(['doctor', p.dir], { cwd: p.dir, env })).stdout;
    let report = await doctor();
    assert.match(report, /fail\s+codex: project trusted in .*config\.toml.*\s+run `codex exec --trust` here once/);
    assert.match(report, /codex: hook trust is not visible to baton/);
    assert.match(report, /fail\s+gemini: folder trusted.*\s+trust the folder when Gemini CLI asks/);
    assert.match(report, /fail\s+gemini: auth type chosen\s+choose one/);
    mkdirSync(join(home, 'codex'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, 'codex', 'config.toml'), `[projects.${JSON.stringify(p.dir)}]\ntrust_level = "trusted"\n`);
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [p.dir]: 'TRUST_FOLDER' }));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    report = await doctor();
    assert.doesNotMatch(report, /fail\s+(codex|gemini)/);
    assert.match(report, /gemini: auth type chosen \(gemini-api-key\)/);
  });
});
