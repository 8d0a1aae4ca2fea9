/**
 * A goal pointer (`~/.claude/orchestrate/active`) that is there but cannot be read, here a link to
 * itself, is not "no active goal": start would otherwise leave the previous goal active and
 * unpaused. Each command that reads it refuses with one line naming the file and the fix (exit 1),
 * through baton and the compat goal.sh, and changes nothing (list lists the goals first, none
 * marked active); a native hook says it on stderr and goes on, a compat hook stays silent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BATON_BIN, baton, sandbox, script } from './helpers.js';

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
  // The compat hooks test the pointer with [ -e ] before Node starts and stay silent, as the
  // plugin they stand in for: no goal in scope.
  const payload = (event: string) =>
    JSON.stringify({ session_id: 's1', hook_event_name: event, source: 'startup', reason: 'exit', cwd: box.work });
  const hook = script(box, 'session-start.sh', [], { input: payload('SessionStart') });
  assert.deepEqual([hook.status, hook.stdout], [0, '']);
  // The native ones say it: the goal hooks are off until the pointer is fixed. No goal hook is
  // gated (they only add context), so each goes on: exit 0, nothing for the host, the line on
  // stderr (before: silent, as if no goal were active).
  for (const event of ['SessionStart', 'Stop', 'SessionEnd']) {
    const native = baton(box, ['hook', event, '--profile', 'orchestrate'], { input: payload(event) });
    assert.deepEqual([native.status, native.stdout], [0, ''], native.stderr);
    assert.equal(native.stderr, `[baton hook] ${event} did nothing, allowing: ${line}\n`);
  }
  assert.deepEqual(readdirSync(box.root).sort(), before.files, 'the hooks left the goals as they were');
});

test('a goal folder this user may not enter: a native goal hook says the pointer cannot be read, and goes on', (t) => {
  const box = sandbox();
  t.after(() => {
    chmodSync(box.root, 0o755);
    rmSync(box.base, { recursive: true, force: true });
  });
  assert.equal(baton(box, ['goal', 'start', 'one', 'The first goal']).status, 0);
  chmodSync(box.root, 0o000);
  // Root enters a 000 folder anyway: the hook runs without the capabilities that let it.
  const argv = [process.execPath, BATON_BIN, 'hook', 'SessionStart', '--profile', 'orchestrate'];
  const [cmd, ...rest] = (
    process.getuid?.() === 0
      ? ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--', ...argv]
      : argv
  ) as [string, ...string[]];
  const input = JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: box.work });
  const r = spawnSync(cmd, rest, { cwd: box.work, env: box.env, input, encoding: 'utf8' });
  assert.deepEqual([r.status, r.stdout], [0, ''], r.stderr);
  assert.equal(
    r.stderr,
    `[baton hook] SessionStart did nothing, allowing: goal pointer ${join(box.root, 'active')} cannot be read, so which goal is active is not known: permission denied; give this user access to it or run baton as its owner (EACCES)\n`,
  );
});
