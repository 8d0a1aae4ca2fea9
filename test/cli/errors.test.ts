import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('strings jq cannot read', () => {
  it('a lone UTF-16 surrogate is refused from --argjson, set --json and a library write; nothing is written', async (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":"ok"}\n' });
    t.after(cleanup);
    assert.equal(baton(['update', 'd.json', '.a = $x', '--argjson', 'x', '"\\ud800"'], { cwd: dir }).code, 2);
    assert.equal(baton(['set', 'd.json', 'a', '"\\udc00 tail"', '--json'], { cwd: dir }).code, 2);
    const { openDoc } = await import('../../src/index.js');
    await assert.rejects(
      openDoc(join(dir, 'd.json')).update((doc) => ({ ...doc, a: 'x\ud800' })),
      (error: { code?: string }) => error.code === 'invalid',
    );
    assert.equal(readFileSync(join(dir, 'd.json'), 'utf8'), '{"a":"ok"}\n');
    assert.equal(
      baton(['update', 'd.json', '.a = $x', '--argjson', 'x', '"\\ud83d\\ude00"'], { cwd: dir }).code,
      0,
      'a surrogate pair is a character',
    );
    assert.equal(spawnSync('jq', ['-r', '.a', join(dir, 'd.json')], { encoding: 'utf8' }).stdout, '\u{1F600}\n');
  });
});

describe('documents written by other tools, checked by the doctor with its harness rows', () => {
  it("the doctor's advice for a broken Eneo task without history is true (never --repair), and it works", (t) => {
    const { dir, cleanup } = tempTree({
      'baton.config.json': '{"profile":"eneo"}',
      '.claude/state/current-task.json': '{broken',
    });
    t.after(cleanup);
    const doctor = baton(['doctor', '--json'], { cwd: dir, env: { BATON_ROOT: dir } });
    const row = (JSON.parse(doctor.stdout).checks as { ok: boolean; check: string; fix: string }[]).find(
      (r) => !r.ok && /^current-task\.json/.test(r.check),
    );
    assert.ok(row, doctor.stdout);
    assert.doesNotMatch(row.fix, /(^|\s)rm\s/);
    // No history (baton never wrote it): the fix is by hand or clearing the task, never --repair.
    assert.doesNotMatch(row.fix, /--repair/);
    // Clear keeps what it cannot show: the advice moves the file aside first, then clears.
    const [, from, to] = /\(mv (\S+) (\S+)\) and baton task clear/.exec(row.fix) ?? [];
    assert.ok(from && to, row.fix);
    renameSync(join(dir, from), join(dir, to));
    assert.equal(baton(['task', 'clear'], { cwd: dir, env: { BATON_ROOT: dir } }).code, 0);
    assert.equal(readFileSync(join(dir, to), 'utf8'), '{broken', 'the text is kept');
    assert.equal(baton(['doctor'], { cwd: dir, env: { BATON_ROOT: dir } }).code, 0);
  });
});
