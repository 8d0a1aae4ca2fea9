/**
 * `baton serve` keeps the file store's work board as it keeps the other files a decision reads
 * (src/fs/kept-reads.ts: one stat per decision, read again when it moved). Attacked here: another
 * process claims or releases an item, and the next PreToolUse, asked at once, must be judged by
 * the board that process left, every round; a board file replaced by a link out of the project, by
 * one that is not a board or by one that cannot be looked at is refused as the engine refuses it,
 * never served from memory nor taken for no board.
 */
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { serve } from './hook-client.js';

const HOLDER = 'a4dfaab062324b293';
const OTHER = 'a31f580b12cdf42a2';
const BOARD = '.claude/state/board.json';
/** Longer than the time kept-reads.ts waits for a changed file to settle (100 ms). */
const SETTLE_MS = 250;

function boardProject() {
  const tree = tempTree({ 'baton.config.json': '{}\n', 'src/api/handler.ts': 'x', 'src/ui/form.ts': 'x' });
  const work = (args: string[], agent?: string) =>
    baton(['work', ...args], { cwd: tree.dir, env: agent ? { BATON_AGENT: agent, BATON_SESSION: 's' } : {} });
  assert.equal(work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']).code, 0);
  return { ...tree, work };
}

describe('baton serve: the file store work board, kept in memory', () => {
  it('a claim or a release by another process a moment before the next PreToolUse is the board it is judged by, every round', async (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    const file = 'src/api/handler.ts';
    assert.equal(await server.write(file, OTHER), 'allow', 'nothing is claimed yet');
    for (let round = 0; round < 10; round++) {
      const claimed = p.work(['claim', 'api', '--lease', '600'], HOLDER);
      assert.equal(claimed.code, 0, claimed.stderr);
      // No wait: the next tool call comes as soon as baton has returned.
      assert.equal(await server.write(file, OTHER), 'deny', `round ${round}: claimed`);
      assert.equal(await server.write(file, HOLDER), 'allow', `round ${round}: the holder writes`);
      const released = p.work(['release', 'api'], HOLDER);
      assert.equal(released.code, 0, released.stderr);
      assert.equal(await server.write(file, OTHER), 'allow', `round ${round}: released`);
    }
    // Unchanged and settled, the board comes from memory: one stat, no read.
    assert.equal(p.work(['claim', 'api', '--lease', '600'], HOLDER).code, 0);
    await sleep(SETTLE_MS);
    await server.write(file, OTHER);
    const before = await server.kept();
    for (let i = 0; i < 5; i++) assert.equal(await server.write(file, OTHER), 'deny');
    const after = await server.kept();
    assert.equal(after.reads, before.reads, 'no file was read again');
    assert.ok(after.hits >= before.hits + 10, `kept copies were used (${after.hits - before.hits} hits)`);
    assert.equal(after.entries, 2, 'the config and the board are kept');
  });

  it('a kept board replaced by a link out of the project, or by a file that is not a board, denies as the engine does', async (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    // Another project's board, its item free: believed in place of this one, it would lift the claim.
    const outside = boardProject();
    t.after(outside.cleanup);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    const board = join(p.dir, BOARD);
    assert.equal(p.work(['claim', 'api', '--lease', '600'], HOLDER).code, 0);
    await sleep(SETTLE_MS);
    assert.equal(await server.write('src/api/handler.ts', OTHER), 'deny');
    assert.equal(await server.write('src/api/handler.ts', OTHER), 'deny');

    renameSync(board, `${board}.aside`);
    symlinkSync(join(outside.dir, BOARD), board);
    assert.match(await server.raw('src/api/handler.ts', OTHER), /"permissionDecision":"deny".*board/);
    rmSync(board);

    // Not JSON: the board cannot be read, so every write in the project is denied.
    writeFileSync(board, '{"items": ');
    assert.match(await server.raw('src/ui/form.ts', OTHER), /"permissionDecision":"deny"/);
    rmSync(board);
    // A link to itself cannot be looked at (ELOOP, as EACCES for a folder this user may not enter):
    // not "no board", which would lift the claim.
    symlinkSync(board, board);
    assert.match(await server.raw('src/api/handler.ts', OTHER), /"permissionDecision":"deny"/);
    // And by `baton hook` in process, which took it for no board too.
    const payload = {
      session_id: 's',
      agent_id: OTHER,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'src/api/handler.ts'), content: 'x' },
      cwd: p.dir,
    };
    const hook = baton(['hook', 'PreToolUse'], { cwd: p.dir, input: JSON.stringify(payload) });
    assert.match(hook.stdout, /"permissionDecision":"deny"/, hook.stderr);
    rmSync(board);
    // The board back as it was: the claim holds, the other item's paths are free.
    renameSync(`${board}.aside`, board);
    assert.equal(await server.write('src/api/handler.ts', OTHER), 'deny');
    assert.equal(await server.write('src/ui/form.ts', OTHER), 'allow');
  });
});
