/**
 * Any name the file system accepts is a valid document name, up to 255 bytes: the lock, metadata,
 * history and temp files beside it are longer than the name, so for long names they derive from a
 * hash, while short names keep their readable sidecar names (existing projects are unchanged).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const NAME_MAX = 255;

function nameOf(bytes: number, unit = 'a'): string {
  const stem = unit.repeat(Math.floor((bytes - '.json'.length) / Buffer.byteLength(unit)));
  return `${stem}${'b'.repeat(bytes - '.json'.length - Buffer.byteLength(stem))}.json`;
}

describe('document names up to 255 bytes', () => {
  for (const [label, name] of [
    ['ASCII', nameOf(NAME_MAX)],
    ['two-byte UTF-8', nameOf(NAME_MAX, 'é')],
    ['past the readable limit', nameOf(230)],
  ] as const) {
    it(`init, update, set, get, history, revert and doctor work on a ${Buffer.byteLength(name)}-byte ${label} name`, (t) => {
      const p = tempTree({ '.git/HEAD': '' });
      t.after(p.cleanup);
      const run = (args: string[]) => baton(args, { cwd: p.dir });
      const ok = (args: string[]) => {
        const r = run(args);
        assert.equal(r.code, 0, `${args[0]}: ${r.stderr}`);
        return r.stdout;
      };
      ok(['init', name, '--argjson', 'n', '0']);
      ok(['update', name, '.n += 1']);
      ok(['set', name, 'tag', 'x']);
      assert.equal(ok(['get', name, '.n']), '1\n');
      assert.equal(ok(['history', name]).trim().split('\n').length, 3);
      ok(['revert', name, '--rev', '2']);
      assert.deepEqual(JSON.parse(ok(['get', name])), { n: 1 });
      const doctor = run(['doctor']);
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      assert.ok(doctor.stdout.includes(name), 'the doctor names the document by its real name');
      for (const entry of readdirSync(join(p.dir, '.baton'))) assert.ok(Buffer.byteLength(entry) <= NAME_MAX);
    });
  }

  it('a short name keeps its readable sidecar names', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    t.after(p.cleanup);
    const name = nameOf(215);
    assert.equal(baton(['init', name, '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    assert.deepEqual(readdirSync(join(p.dir, '.baton')).sort(), ['.gitignore', `${name}.history`, `${name}.meta.json`]);
    writeFileSync(join(p.dir, 'x.json'), '{}');
    assert.equal(baton(['update', 'x.json', '.a = 1'], { cwd: p.dir }).code, 0);
    assert.ok(readdirSync(join(p.dir, '.baton')).includes('x.json.history'));
  });
});
