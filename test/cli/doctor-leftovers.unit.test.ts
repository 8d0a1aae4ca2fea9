import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

async function revisions(dir: string, file = 'c.json'): Promise<number[]> {
  const out = await baton(['history', file, '--limit', '1000', '--json'], { cwd: dir });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { rev: number }).rev);
}

describe('baton doctor: what crashes, full disks and old bugs leave behind', () => {
  it('finds duplicate revision numbers in old history, and --repair keeps the good prefix and sets the rest aside', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
    for (let i = 0; i < 3; i++) await baton(['update', 'c.json', '.n += 1'], { cwd: dir });
    // What two writers committing on one revision left before commits were fenced: r3 twice.
    const segment = join(dir, '.baton', 'c.json.history', '000000000001.jsonl');
    const lines = readFileSync(segment, 'utf8').trim().split('\n');
    writeFileSync(segment, `${[...lines.slice(0, 3), lines[2], lines[3]].join('\n')}\n`);
    const doc = readFileSync(join(dir, 'c.json'), 'utf8');

    const report = await baton(['doctor', dir, '--json'], { cwd: dir });
    assert.equal(report.code, 1);
    const failed = (JSON.parse(report.stdout) as { checks: { ok: boolean; check: string }[] }).checks.filter(
      (c) => !c.ok,
    );
    assert.deepEqual(
      failed.map((c) => c.check),
      ['c.json history revisions are unique and in order'],
    );

    const repaired = await baton(['doctor', dir, '--repair'], { cwd: dir });
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), doc);
    const revs = await revisions(dir);
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
    assert.equal((await baton(['update', 'c.json', '.n += 1'], { cwd: dir })).code, 0);
    assert.equal((await baton(['doctor', dir], { cwd: dir })).code, 0);
  });

  it('reports a document replaced by a folder and goes on checking the others', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'a.json'], { cwd: dir });
    await baton(['init', 'b.json'], { cwd: dir });
    rmSync(join(dir, 'a.json'));
    mkdirSync(join(dir, 'a.json'));
    appendFileSync(join(dir, 'a.json', 'inside.txt'), 'x');

    const report = await baton(['doctor', dir], { cwd: dir });
    assert.equal(report.code, 1, report.stderr);
    assert.doesNotMatch(report.stderr, /internal error|EISDIR/);
    assert.match(report.stdout, /fail\s+a\.json is a JSON document\s+a\.json is a folder/);
    assert.match(report.stdout, /ok\s+b\.json parses/);
  });
});
