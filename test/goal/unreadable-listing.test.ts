/**
 * `baton goal list` where a folder cannot be looked into (mode 000): it lists what it can, prints
 * a row naming each path it could not read with the cause and the fix, and exits 1 after the whole
 * listing; it never says "no goals" where it could not look. Root reads a 000 folder anyway, so
 * the command runs without the capabilities that let it, and EACCES is met whoever runs the tests.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BATON_BIN, baton, sandbox, type Sandbox } from './helpers.js';

const DENIED = 'permission denied; give this user access to it or run baton as its owner (EACCES)';

function listAsUser(box: Sandbox, args: string[] = []) {
  const argv = [process.execPath, BATON_BIN, 'goal', 'list', ...args];
  const [cmd, ...rest] = (
    process.getuid?.() === 0
      ? ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--', ...argv]
      : argv
  ) as [string, ...string[]];
  return spawnSync(cmd, rest, { cwd: box.work, env: box.env, encoding: 'utf8' });
}

test('goal list with a goal folder, the archive or the goals folder it may not enter: rows naming each, the rest listed, exit 1', (t) => {
  const box = sandbox();
  const locked: string[] = [];
  t.after(() => {
    for (const dir of locked) chmodSync(dir, 0o755);
    rmSync(box.base, { recursive: true, force: true });
  });
  const lock = (dir: string) => {
    chmodSync(dir, 0o000);
    locked.push(dir);
  };
  assert.equal(baton(box, ['goal', 'start', 'one', 'The first goal']).status, 0);
  assert.equal(baton(box, ['goal', 'start', 'two', 'The second goal']).status, 0);

  // Before: goal two's folder was skipped without a word (its state.md "not there"), exit 0.
  lock(join(box.root, 'one'));
  const one = listAsUser(box);
  assert.equal(one.status, 1, one.stderr);
  assert.match(one.stdout, /^\* two +active +updated \S+ +The second goal$/m);
  assert.ok(
    one.stdout.includes(
      `  one${' '.repeat(25)} unreadable: ${join(box.root, 'one', 'state.md')} cannot be looked at: ${DENIED}\n`,
    ),
    one.stdout,
  );
  assert.match(one.stdout, /^active: two /m);
  assert.equal(one.stderr.trim().split('\n').length, 1, one.stderr);
  assert.match(one.stderr, /one\/state\.md cannot be looked at: .*EACCES.*what could be read is listed above/);

  // The archive: its count was a raw error for the whole command; --all skipped it.
  mkdirSync(join(box.root, 'archive', 'old'), { recursive: true });
  writeFileSync(join(box.root, 'archive', 'old', 'state.md'), '# Goal: an old one\n');
  lock(join(box.root, 'archive'));
  for (const args of [[], ['--all']]) {
    const r = listAsUser(box, args);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^\* two +active +updated \S+ +The second goal$/m);
    assert.ok(
      r.stdout.includes(`  ${join(box.root, 'archive')}/ unreadable: ${join(box.root, 'archive')} cannot be listed`),
      r.stdout,
    );
    assert.match(r.stderr, /\(and 1 more, listed above\); what could be read is listed above/);
  }

  // The goals' folder itself: before, "(no goals in ...)" and exit 0.
  lock(box.root);
  const root = listAsUser(box);
  assert.equal(root.status, 1, root.stderr);
  assert.doesNotMatch(root.stdout, /no goals/);
  assert.ok(
    root.stdout.includes(
      `  ${box.root}/ unreadable: ${box.root} cannot be listed, so the goals in it are not shown: ${DENIED}\n`,
    ),
    root.stdout,
  );
  assert.equal(root.stderr.trim().split('\n').length, 1, root.stderr);
});

// A goal's name that is a symbolic link to itself (ELOOP), the only entry: before, its row and then
// "(no goals in ...)" below it. A link to the goals' folder itself is no goal (no state.md there).
test('goal list with a goal name that is a symlink loop, and one linked to the goals folder: a row naming the loop, no "no goals", exit 1', (t) => {
  const box = sandbox();
  t.after(() => rmSync(box.base, { recursive: true, force: true }));
  mkdirSync(box.root, { recursive: true });
  symlinkSync('loop', join(box.root, 'loop'));
  symlinkSync('.', join(box.root, 'here'));
  const r = baton(box, ['goal', 'list']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout,
    `  loop                         unreadable: ${join(box.root, 'loop', 'state.md')} cannot be looked at: a symbolic link loops, or the path has too many; put the file itself there (ELOOP)\n`,
  );
  assert.match(r.stderr, /ELOOP\); what could be read is listed above\n$/);
});
