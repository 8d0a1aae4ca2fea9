/**
 * `baton doctor`'s own rows on real broken projects, in-process (npm run test:fast): the folder
 * given, an empty one, a schema file gone, a mirror file refused by its read bound or linked out of
 * the project, a store with no checks of its own, and --json with and without --repair.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const TASK = '.claude/state/current-task.json';
const PHASE = '.claude/state/phase';

interface Report {
  root: string;
  ok: boolean;
  checks: { ok: boolean; warn?: boolean; check: string; fix: string }[];
  repaired: string[];
}

async function greenTask(dir: string): Promise<void> {
  assert.equal((await baton(['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo'], { cwd: dir })).code, 0);
  assert.equal((await baton(['update', TASK, '.tdd_phase = "GREEN"'], { cwd: dir })).code, 0);
  assert.equal(readFileSync(join(dir, PHASE), 'utf8'), 'GREEN\n');
}

describe('baton doctor: the folder it checks', () => {
  it('a folder that does not exist is exit 1 naming it; an empty one is one ok row', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const missing = await baton(['doctor', 'nope'], { cwd: dir });
    assert.equal(missing.code, 1);
    assert.deepEqual(messageLines(missing.stderr), [
      `baton doctor: ${join(dir, 'nope')} does not exist; give the folder to check`,
    ]);
    const empty = await baton(['doctor'], { cwd: dir });
    assert.deepEqual([empty.code, empty.stdout], [0, `ok    no baton documents under ${dir}  —\n`]);
  });

  it('a store that keeps no files has no checks of its own: one ok row, exit 0', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const r = await baton(['--store', 'memory:', 'doctor'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ok +the memory store has no checks of its own +—$/m);
  });
});

describe('baton doctor: the engine rows of each document', () => {
  it("a document whose schema file is gone fails 'schema loads', naming the file; the others are still checked", async (t) => {
    const { dir, cleanup } = tempTree({ 's.schema.json': '{"type": "object"}' });
    t.after(cleanup);
    assert.equal((await baton(['init', 'a.json', '--schema', 's.schema.json'], { cwd: dir })).code, 0);
    assert.equal((await baton(['init', 'b.json'], { cwd: dir })).code, 0);
    rmSync(join(dir, 's.schema.json'));
    const r = await baton(['doctor', '--json'], { cwd: dir });
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as Report;
    assert.equal(report.ok, false);
    const row = report.checks.find((c) => c.check === 'a.json schema loads');
    assert.ok(row && !row.ok, r.stdout);
    assert.match(row.fix, /s\.schema\.json/);
    assert.ok(
      report.checks.some((c) => c.ok && /^b\.json /.test(c.check)),
      'b.json checked too',
    );
  });

  it('a mirror file past its read bound fails naming the bound; --repair rewrites it from the JSON', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await greenTask(dir);
    truncateSync(join(dir, PHASE), 2 * 1024 * 1024);
    const r = await baton(['doctor', '--json'], { cwd: dir });
    assert.equal(r.code, 1);
    const row = (JSON.parse(r.stdout) as Report).checks.find((c) => c.check === `${TASK} mirror phase = tdd_phase`);
    assert.ok(row && !row.ok, r.stdout);
    assert.match(row.fix, /^baton doctor --repair rewrites phase from the JSON \("\(.*1 MiB.*\)" vs "GREEN"\)$/);
    const repaired = await baton(['doctor', '--repair', '--json'], { cwd: dir });
    const report = JSON.parse(repaired.stdout) as Report;
    assert.deepEqual(report.repaired, [`rewrote ${PHASE}`]);
    assert.equal(readFileSync(join(dir, PHASE), 'utf8'), 'GREEN\n');
    assert.ok(report.checks.find((c) => c.check === `${TASK} mirror phase = tdd_phase`)?.ok);
  });

  it('a mirror linked out of the project fails and names why; --repair writes nothing outside', async (t) => {
    const outside = tempTree({ 'phase.txt': 'mine\n' });
    const { dir, cleanup } = tempTree();
    t.after(() => {
      cleanup();
      outside.cleanup();
    });
    await greenTask(dir);
    rmSync(join(dir, PHASE));
    symlinkSync(join(outside.dir, 'phase.txt'), join(dir, PHASE));
    const r = await baton(['doctor'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`^fail +${TASK.replaceAll('.', '\\.')} mirrors can be written +.*symlink`, 'm'));
    const repair = await baton(['doctor', '--repair'], { cwd: dir });
    assert.equal(repair.code, 1);
    assert.equal(readFileSync(join(outside.dir, 'phase.txt'), 'utf8'), 'mine\n');
  });

  it('--repair prints what it repaired on stderr, and the rows after it', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await greenTask(dir);
    writeFileSync(join(dir, PHASE), 'RED\n');
    const r = await baton(['doctor', '--repair'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.stderr, `baton doctor: rewrote ${PHASE}\n`);
    assert.match(r.stdout, /^ok +\.claude\/state\/current-task\.json mirror phase = tdd_phase +—$/m);
    assert.equal(readFileSync(join(dir, PHASE), 'utf8'), 'GREEN\n');
    // Nothing left to repair: the same command repairs nothing and says nothing.
    const again = await baton(['doctor', '--repair', '--json'], { cwd: dir });
    assert.deepEqual((JSON.parse(again.stdout) as Report).repaired, []);
    assert.equal(existsSync(join(dir, '.claude/state/phase.tmp')), false);
  });
});

describe('baton doctor: pipeline-run rows', () => {
  it('a .ai_log folder with no run state file in it gives no row', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    mkdirSync(join(dir, '.ai_log'));
    writeFileSync(join(dir, '.ai_log', 'notes.txt'), 'not a run\n');
    const r = await baton(['doctor', '--json'], { cwd: dir });
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout), { root: dir, ok: true, checks: [], repaired: [] });
  });
});
