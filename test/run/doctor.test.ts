/**
 * The run state is a temporary bus and must never be committed; baton does not edit
 * .gitignore, but `baton doctor` warns when a run file is not ignored. A warning names the fix
 * and does not fail the doctor (the documents themselves are healthy).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, project } from './helpers.js';

describe('baton doctor and run files', () => {
  it('warns when .ai_log/session-*.json is not git-ignored, and says ok once it is', (t) => {
    const p = project();
    t.after(p.cleanup);
    rmSync(join(p.dir, '.git'), { recursive: true });
    assert.equal(spawnSync('git', ['init', '-q', '.'], { cwd: p.dir }).status, 0);
    baton(['run', 'init', 's'], p.dir);
    const warned = baton(['doctor'], p.dir);
    assert.equal(warned.code, 0, warned.stdout);
    assert.match(
      warned.stdout,
      /^warn +\.ai_log\/session-s\.json is not git-ignored +add \/\.ai_log\/\* and !\/\.ai_log\/\.gitkeep to \.gitignore/m,
    );
    const json = JSON.parse(baton(['doctor', '--json'], p.dir).stdout);
    assert.equal(json.ok, true);
    assert.deepEqual(
      json.checks.filter((c: { warn?: boolean }) => c.warn).map((c: { check: string }) => c.check),
      ['.ai_log/session-s.json is not git-ignored'],
    );
    writeFileSync(join(p.dir, '.gitignore'), '/.ai_log/*\n!/.ai_log/.gitkeep\n');
    const fixed = baton(['doctor'], p.dir);
    assert.equal(fixed.code, 0);
    assert.match(fixed.stdout, /^ok +\.ai_log\/session-s\.json is git-ignored/m);
    assert.doesNotMatch(fixed.stdout, /^warn/m);
  });

  it('outside a git repository there is nothing to commit, so no row', (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 's'], p.dir, { CLAUDE_PROJECT_DIR: p.dir, GIT_CEILING_DIRECTORIES: p.dir });
    rmSync(join(p.dir, '.git'), { recursive: true });
    const r = baton(['doctor', p.dir], p.dir, { GIT_CEILING_DIRECTORIES: join(p.dir, '..') });
    assert.doesNotMatch(r.stdout, /git-ignored/);
  });
});
