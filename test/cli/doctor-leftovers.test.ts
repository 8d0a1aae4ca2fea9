import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

function revisions(dir: string, file = 'c.json'): number[] {
  const out = baton(['history', file, '--limit', '1000', '--json'], { cwd: dir });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { rev: number }).rev);
}

describe('baton doctor: what crashes, full disks and old bugs leave behind', () => {
  it('finds duplicate revision numbers in old history, and --repair keeps the good prefix and sets the rest aside', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
    for (let i = 0; i < 3; i++) baton(['update', 'c.json', '.n += 1'], { cwd: dir });
    // What two writers committing on one revision left before commits were fenced: r3 twice.
    const segment = join(dir, '.baton', 'c.json.history', '000000000001.jsonl');
    const lines = readFileSync(segment, 'utf8').trim().split('\n');
    writeFileSync(segment, `${[...lines.slice(0, 3), lines[2], lines[3]].join('\n')}\n`);
    const doc = readFileSync(join(dir, 'c.json'), 'utf8');

    const report = baton(['doctor', dir, '--json'], { cwd: dir });
    assert.equal(report.code, 1);
    const failed = (JSON.parse(report.stdout) as { checks: { ok: boolean; check: string }[] }).checks.filter(
      (c) => !c.ok,
    );
    assert.deepEqual(
      failed.map((c) => c.check),
      ['c.json history revisions are unique and in order'],
    );

    const repaired = baton(['doctor', dir, '--repair'], { cwd: dir });
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), doc);
    const revs = revisions(dir);
    assert.equal(new Set(revs).size, revs.length);
    assert.deepEqual(
      revs,
      [...revs].sort((a, b) => b - a),
    );
    assert.equal(
      readdirSync(join(dir, '.baton', 'c.json.history')).filter((name) => name.includes('.corrupt-')).length,
      1,
      'the set-aside lines are kept',
    );
    assert.equal(baton(['update', 'c.json', '.n += 1'], { cwd: dir }).code, 0);
    assert.equal(baton(['doctor', dir], { cwd: dir }).code, 0);
  });

  it('reports and removes lock temp files of dead writers and locks a killed taker left aside', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json'], { cwd: dir });
    const pid = deadPid();
    const record = `${pid}\n${hostname()}\n${Date.now()}\ntok\n\n`;
    const leftovers = [
      `.c.json.lock.${pid}.0123456789ab.tmp`,
      `.c.json.lock.steal.${pid}.0123456789ab.tmp`,
      'c.json.lock.stale.0123456789ab',
      'c.json.lock.steal.stale.0123456789ab',
    ];
    for (const name of leftovers) writeFileSync(join(dir, '.baton', name), record);

    const report = baton(['doctor', dir], { cwd: dir });
    assert.equal(report.code, 1);
    for (const name of leftovers)
      assert.match(
        report.stdout,
        new RegExp(`fail\\s+leftover (temp file|stale lock) \\.baton/${name.replaceAll('.', '\\.')}`),
      );
    const repaired = baton(['doctor', dir, '--repair'], { cwd: dir });
    assert.equal(repaired.code, 0, repaired.stdout);
    for (const name of leftovers) assert.equal(existsSync(join(dir, '.baton', name)), false, name);
  });

  it('reports a document replaced by a folder and goes on checking the others', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'a.json'], { cwd: dir });
    baton(['init', 'b.json'], { cwd: dir });
    rmSync(join(dir, 'a.json'));
    mkdirSync(join(dir, 'a.json'));
    appendFileSync(join(dir, 'a.json', 'inside.txt'), 'x');

    const report = baton(['doctor', dir], { cwd: dir });
    assert.equal(report.code, 1, report.stderr);
    assert.doesNotMatch(report.stderr, /internal error|EISDIR/);
    assert.match(report.stdout, /fail\s+a\.json is a JSON document\s+a\.json is a folder/);
    assert.match(report.stdout, /ok\s+b\.json parses/);
  });
});
