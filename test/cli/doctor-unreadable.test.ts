/**
 * `baton doctor` on a mirror file that is there but that this user may not read: the row says it
 * cannot be read, with the cause and the fix, as the gates deny with; not "missing" (null), and
 * no --repair whose write would meet the same wall. Root reads a 000 file anyway, so the doctor
 * runs without the capabilities that let it, and EACCES is met whoever runs the tests.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, baton, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const TASK = '.claude/state/current-task.json';
const PHASE = '.claude/state/phase';

interface Report {
  checks: { ok: boolean; check: string; fix: string }[];
  repaired: string[];
}

function asUser(dir: string, args: string[]) {
  const argv =
    process.getuid?.() === 0
      ? ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, BIN]
      : [process.execPath, BIN];
  const [cmd, ...rest] = [...argv, ...args] as [string, ...string[]];
  return spawnSync(cmd, rest, { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
}

describe('baton doctor: a file or folder that cannot be read', () => {
  it('fails saying it cannot be read, naming the cause and the fix; --repair leaves it as it is', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    assert.equal(baton(['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo'], { cwd: dir }).code, 0);
    assert.equal(baton(['update', TASK, '.tdd_phase = "GREEN"'], { cwd: dir }).code, 0);
    chmodSync(join(dir, PHASE), 0o000);
    const r = asUser(dir, ['doctor', '--json']);
    assert.equal(r.status, 1, r.stderr);
    const row = (JSON.parse(r.stdout) as Report).checks.find((c) => c.check === `${TASK} mirror phase = tdd_phase`);
    assert.ok(row && !row.ok, r.stdout);
    assert.equal(
      row.fix,
      `mirror ${join(dir, PHASE)} cannot be read, so the rule it decides cannot be checked: permission denied; give this user access to it or run baton as its owner (EACCES)`,
    );
    const repair = asUser(dir, ['doctor', '--repair', '--json']);
    assert.deepEqual((JSON.parse(repair.stdout) as Report).repaired, []);
    chmodSync(join(dir, PHASE), 0o644);
    assert.equal(readFileSync(join(dir, PHASE), 'utf8'), 'GREEN\n');
  });

  it('a state folder it may not enter is a failing row, not "no baton documents" with exit 0', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(() => {
      chmodSync(join(dir, '.claude/state'), 0o755);
      cleanup();
    });
    assert.equal(baton(['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo'], { cwd: dir }).code, 0);
    chmodSync(join(dir, '.claude/state'), 0o000);
    const r = asUser(dir, ['doctor']);
    assert.equal(r.status, 1, r.stdout);
    assert.doesNotMatch(r.stdout, /no baton documents/);
    assert.match(
      r.stdout,
      new RegExp(
        `^fail  \\.claude/state can be listed  ${join(dir, '.claude/state').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be listed, so the documents in it cannot be checked: permission denied; give this user access to it or run baton as its owner \\(EACCES\\)$`,
        'm',
      ),
    );
  });
});
