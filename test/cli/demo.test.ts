import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('baton demo', () => {
  it('runs three waves of agent processes and loses no update', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const result = baton(['demo'], { cwd: dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /wave 3\/3: 4 agent processes/);
    assert.match(result.stdout, /ok: 60\/60 concurrent updates landed, 12 phase outputs recorded, 0 lost/);
    assert.match(result.stdout, /status line: demo-run · p1\/1 · w3\/3 \[▓▓▓\] · REFACTOR · → \/baton:task-done/);
    assert.match(result.stdout, /history: \d+ revisions/);
  });

  it('--dir keeps its files (creating the folder), and the doctor finds them healthy', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const target = join(dir, 'new', 'demo');
    const result = baton(['demo', '--dir', target, '--waves', '2', '--agents', '3', '--updates', '2'], { cwd: dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /ok: 12\/12 concurrent updates landed, 6 phase outputs recorded, 0 lost/);
    const doctor = baton(['doctor', target], { cwd: dir });
    assert.equal(doctor.code, 0, doctor.stdout);
    assert.match(doctor.stdout, /current-task\.json history replays to the document/);
  });
});
