/**
 * `baton serve` keeps the files a gated decision reads (the config, the phase mirror, the task) in
 * memory, each checked by one stat per decision (src/fs/kept-reads.ts). Attacked here: a phase
 * changed a moment before the next PreToolUse, by baton and by a same-size rewrite in place inside
 * the file clock's tick, and a kept file replaced by one the plain read refuses. Each round asks
 * the real server right after the change: a copy judged stale would let a test write through.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { serve } from './hook-client.js';

const TASK = '.claude/state/current-task.json';
const MIRROR = '.claude/state/phase';
/** Longer than the time kept-reads.ts waits for a changed file to settle (100 ms). */
const SETTLE_MS = 250;

function project() {
  const tree = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
  const made = baton(['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'kept', '--arg', 'lane', 'fast'], {
    cwd: tree.dir,
  });
  assert.equal(made.code, 0, made.stderr);
  return tree;
}

const TEST_FILE = 'backend/tests/test_app.py';

describe('baton serve: the state a decision reads, kept in memory', () => {
  it('a phase set by baton a moment before the next PreToolUse is the phase it is judged by, every round', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    for (let round = 0; round < 12; round++) {
      const phase = round % 2 ? 'GREEN' : 'RED';
      const set = baton(['task', 'phase-set', phase], { cwd: p.dir });
      assert.equal(set.code, 0, set.stderr);
      // No wait: the next tool call comes as soon as baton has returned.
      assert.equal(await server.write(TEST_FILE), phase === 'GREEN' ? 'deny' : 'allow', `round ${round}: ${phase}`);
    }
    // Unchanged and settled, the state comes from memory: one stat per file, no read.
    await sleep(SETTLE_MS);
    await server.write(TEST_FILE);
    const before = await server.kept();
    for (let i = 0; i < 5; i++) assert.equal(await server.write(TEST_FILE), 'deny');
    const after = await server.kept();
    assert.equal(after.reads, before.reads, 'no file was read again');
    assert.ok(after.hits >= before.hits + 10, `kept copies were used (${after.hits - before.hits} hits)`);
  });

  it('a same-size rewrite in place, within the tick of the file clock, is never judged from memory', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    const mirror = join(p.dir, MIRROR);
    // 'FREEZ' is no phase, so it reads as the empty word (FREE): test writes allowed. Both words
    // are six bytes with the newline, and written into the same inode: only the times can differ,
    // and within one tick of the kernel's coarse clock they do not.
    const put = (word: string) => {
      const fd = openSync(mirror, 'r+');
      try {
        writeSync(fd, word, 0);
      } finally {
        closeSync(fd);
      }
    };
    writeFileSync(mirror, 'FREEZ\n');
    for (let round = 0; round < 40; round++) {
      put('FREEZ\n');
      assert.equal(await server.write(TEST_FILE), 'allow', `round ${round}: FREE`);
      put('GREEN\n');
      assert.equal(await server.write(TEST_FILE), 'deny', `round ${round}: GREEN right after FREE`);
    }
  });

  it('a kept file replaced by a FIFO, an oversize file or a file renamed over it is read again, never served from memory', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    const mirror = join(p.dir, MIRROR);
    assert.equal(baton(['task', 'phase-set', 'RED'], { cwd: p.dir }).code, 0);
    await sleep(SETTLE_MS);
    assert.equal(await server.write(TEST_FILE), 'allow');
    assert.equal(await server.write(TEST_FILE), 'allow');
    const { hits } = await server.kept();
    assert.ok(hits > 0, 'the RED mirror is kept');

    // A FIFO in the mirror's place: the plain read refuses it, and the gated call is denied.
    renameSync(mirror, `${mirror}.aside`);
    assert.equal(spawnSync('mkfifo', [mirror]).status, 0);
    assert.match(await server.raw(TEST_FILE), /"permissionDecision":"deny".*not a regular file/);
    // Larger than a mirror may be: refused too, not the RED kept from before.
    writeFileSync(`${mirror}.big`, `RED\n${' '.repeat(1024 * 1024)}`);
    renameSync(`${mirror}.big`, mirror);
    assert.match(await server.raw(TEST_FILE), /"permissionDecision":"deny".*larger than 1 MiB/);
    // The RED file back under its name, as it was: allowed again; then GREEN renamed over it.
    renameSync(`${mirror}.aside`, mirror);
    assert.equal(await server.write(TEST_FILE), 'allow');
    writeFileSync(`${mirror}.new`, 'GREEN\n');
    renameSync(`${mirror}.new`, mirror);
    assert.equal(await server.write(TEST_FILE), 'deny');
    // The config changed under the server: a rule disabled is judged at once.
    writeFileSync(join(p.dir, 'baton.config.json'), '{"profile": "eneo", "disable": ["gate-green"]}\n');
    assert.equal(await server.write(TEST_FILE), 'allow');
  });
});
