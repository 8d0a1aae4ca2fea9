import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('baton doctor: what crashes, full disks and old bugs leave behind', () => {
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
});
