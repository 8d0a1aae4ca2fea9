import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('the V8 code cache of command bundles', () => {
  it('is written beside the bundle, or in a temp folder when the install is read-only, and never breaks a command', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const install = join(dir, 'install');
    cpSync(join(ROOT, 'dist'), join(install, 'dist'), { recursive: true, filter: (from) => !from.includes('.cache') });
    // The bundles of the build that dist/cli.js points at (scripts/switch-build.mjs).
    const build = join(
      install,
      'dist',
      'builds',
      /builds\/([^/]+)\//.exec(readFileSync(join(install, 'dist', 'cli.js'), 'utf8'))?.[1] ?? '',
    );
    const run = (tmp: string) =>
      spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a'], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: tmp }),
      });
    const tmpA = join(dir, 'tmp-a');
    mkdirSync(tmpA);
    assert.equal(run(tmpA).stdout, '1\n');
    assert.ok(existsSync(join(build, 'commands', '.cache')), 'cache beside the bundle');
    assert.equal(run(tmpA).stdout, '1\n', 'a cached run answers the same');
    // A read-only install: the cache folder cannot be created there.
    rmSync(join(build, 'commands', '.cache'), { recursive: true });
    writeFileSync(join(build, 'commands', '.cache'), 'not a folder');
    const tmpB = join(dir, 'tmp-b');
    mkdirSync(tmpB);
    assert.equal(run(tmpB).stdout, '1\n');
    const fallback = join(tmpB, `baton-${process.getuid?.()}`, 'v8-cache');
    assert.ok(existsSync(fallback), "cache in the user's own temp folder");
    assert.equal(readdirSync(fallback).filter((name) => name.endsWith('get.js.' + process.version + '.v8')).length, 1);
    assert.equal(run(tmpB).stdout, '1\n');
  });
});
