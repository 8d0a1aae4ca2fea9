/**
 * A goal pointer (`~/.claude/orchestrate/active`) that is there but cannot be read, here a link to
 * itself, is not "no active goal": start would otherwise leave the previous goal active and
 * unpaused. Each command that reads it refuses with one line naming the file and the fix (exit 1),
 * through baton and the compat goal.sh, and changes nothing (list lists the goals first, none
 * marked active); the hooks put no goal in scope.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { baton, sandbox, script } from './helpers.js';

test('an unreadable goal pointer refuses start, resume, pause and list with one line, and nothing changes', (t) => {
  const box = sandbox();
  t.after(() => rmSync(box.base, { recursive: true, force: true }));
  assert.equal(baton(box, ['goal', 'start', 'one', 'The first goal']).status, 0);
  const active = join(box.root, 'active');
  renameSync(active, `${active}.aside`);
  symlinkSync(active, active);
  const state = join(box.root, 'one', 'state.md');
  const before = { files: readdirSync(box.root).sort(), state: readFileSync(state, 'utf8') };
  const line = `goal pointer ${active} cannot be read, so which goal is active is not known: a symbolic link loops, or the path has too many; put the file itself there (ELOOP)`;
  for (const args of [['start', 'two', 'The second goal'], ['resume', 'one'], ['pause'], ['list']]) {
    for (const [who, r] of [
      ['baton', baton(box, ['goal', ...args])],
      ['goal.sh', script(box, 'goal.sh', args)],
    ] as const) {
      assert.equal(r.status, 1, `${who} ${args[0]}: ${r.stderr}`);
      assert.deepEqual(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.ok(r.stderr.includes(line), `${who} ${args[0]}: ${r.stderr}`);
      assert.deepEqual(readdirSync(box.root).sort(), before.files, `${who} ${args[0]} left the goals as they were`);
      assert.equal(readFileSync(state, 'utf8'), before.state, `${who} ${args[0]} left goal one's state as it was`);
    }
  }
  // list still lists the goals, none marked active, and says which is active is not known (before,
  // it refused as a whole and listed nothing).
  for (const r of [baton(box, ['goal', 'list']), script(box, 'goal.sh', ['list'])]) {
    assert.match(r.stdout, /^ {2}one +active +updated \S+ +The first goal$/m);
    assert.ok(r.stdout.includes(`active: unknown: ${line}\n`), r.stdout);
  }
  // The compat hooks test the pointer with [ -e ] before Node starts, and the native ones take it alike: no goal in scope.
  const payload = JSON.stringify({
    session_id: 's1',
    hook_event_name: 'SessionStart',
    source: 'startup',
    cwd: box.work,
  });
  const hook = script(box, 'session-start.sh', [], { input: payload });
  assert.deepEqual([hook.status, hook.stdout], [0, '']);
  const native = baton(box, ['hook', 'SessionStart', '--profile', 'orchestrate'], { input: payload });
  assert.deepEqual([native.status, native.stdout], [0, ''], native.stderr);
});
