import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { baton, project, snapshot, state } from './helpers.js';
import { messageLines } from '../helpers/cli.js';

describe('bad input: one line naming the fix, documented exit code, nothing on disk changed', () => {
  it('session ids and names with /, .., control characters or a leading dot are refused with exit 2', (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'ok'], p.dir);
    const before = snapshot(p.dir);
    const labels = [
      'a/b',
      '../x',
      '..',
      'a..b',
      '.hidden',
      '-dash',
      'tab\there',
      'nl\nx',
      'bell\u0007',
      'sp ace',
      'ü',
      '',
    ];
    for (const label of labels) {
      for (const args of [
        ['run', 'init', label],
        ['run', 'set', label, 'f', 'v'],
        ['phase', 'start', label, '0-a', '--agent', 'x'],
        ['gate', label, '0-a'],
      ]) {
        const r = baton(args, p.dir);
        const expected = label === '' && args[0] === 'run' ? 1 : 2;
        assert.equal(r.code, expected, `${JSON.stringify(label)} ${args[0]} ${args[1]}: ${r.stderr}`);
        assert.equal(messageLines(r.stderr).length, 1, r.stderr);
      }
    }
    // A label too long for a file name gets the same clear refusal, not the file system's error.
    const long = baton(['run', 'init', 'a'.repeat(201)], p.dir);
    assert.deepEqual([long.code, messageLines(long.stderr).length], [2, 1]);
    assert.match(long.stderr, /at most 200 characters/);
    assert.equal(baton(['run', 'init', 'ok', '--name', 'n'.repeat(200)], p.dir).code, 2);
    for (const name of ['x/y', '..', 'a\u001b[0m']) {
      const r = baton(['run', 'init', 'ok', '--name', name], p.dir);
      assert.equal(r.code, 2, name);
      assert.match(r.stderr, /invalid run name/);
    }
    assert.deepEqual(snapshot(p.dir), before);
    assert.deepEqual(readdirSync(join(p.dir, '.ai_log')).sort(), ['.baton', 'session-ok.json']);
  });

  it('a value over 1 KiB warns; over 4 KiB is refused (exit 1, file unchanged) unless --allow-large', (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'big'], p.dir);
    const warned = baton(['run', 'set', 'big', 'mid', 'x'.repeat(2000)], p.dir);
    assert.deepEqual(
      [warned.code, warned.stderr],
      [0, 'warning: mid is 2000 bytes; store the content under .ai_log/ and save its path\n'],
    );
    const before = snapshot(p.dir);
    const cases = [
      ['run', 'set', 'big', 'report', 'x'.repeat(5000)],
      ['run', 'append', 'big', 'list', 'y'.repeat(4097)],
      ['run', 'set', 'big', 'obj', JSON.stringify({ a: 'z'.repeat(3000), b: 'z'.repeat(3000) }), '--json'],
    ];
    for (const args of cases) {
      const r = baton(args, p.dir);
      assert.equal(r.code, 1, args[3]);
      assert.match(
        r.stderr,
        /^Error: \S+ is \d+ bytes, over the 4096-byte limit for run fields; write the content to a file under \.ai_log\/ or docs\/ and store its path/,
      );
    }
    baton(['phase', 'start', 'big', '0-a', '--agent', 'x'], p.dir);
    const snapshotPhase = snapshot(p.dir);
    const output = baton(['phase', 'done', 'big', '0-a', '--output', `dump=${'q'.repeat(5000)}`], p.dir);
    assert.equal(output.code, 1);
    assert.match(output.stderr, /output dump is 5000 bytes/);
    assert.deepEqual(snapshot(p.dir), snapshotPhase);
    assert.notDeepEqual(before, snapshotPhase);
    assert.equal(baton(['run', 'set', 'big', 'report', 'x'.repeat(5000), '--allow-large'], p.dir).code, 0);
    assert.equal(state(p.dir, 'big').report.length, 5000);
  });

  it('the limits are configurable per project through the environment', (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'cfg'], p.dir);
    const env = { BATON_RUN_MAX_VALUE_BYTES: '100', BATON_RUN_WARN_VALUE_BYTES: '10' };
    assert.match(baton(['run', 'set', 'cfg', 'a', 'x'.repeat(50)], p.dir, env).stderr, /warning: a is 50 bytes/);
    const r = baton(['run', 'set', 'cfg', 'b', 'x'.repeat(101)], p.dir, env);
    assert.deepEqual([r.code, /over the 100-byte limit/.test(r.stderr)], [1, true]);
    assert.equal(baton(['run', 'set', 'cfg', 'b', 'x'.repeat(101)], p.dir).code, 0);
  });

  it('a corrupt or schema-breaking run document is refused with exit 1 and left as it was', (t) => {
    const p = project({ '.ai_log/session-bad.json': '{"session": "bad", "phases": ' });
    t.after(p.cleanup);
    const before = snapshot(p.dir);
    for (const args of [
      ['run', 'set', 'bad', 'a', 'b'],
      ['run', 'get', 'bad'],
      ['phase', 'start', 'bad', '0-a', '--agent', 'x'],
    ]) {
      const r = baton(args, p.dir);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, /not valid JSON/);
    }
    assert.deepEqual(snapshot(p.dir), before);
    baton(['run', 'init', 'good'], p.dir);
    const broken = baton(['run', 'set', 'good', 'phases', '[]', '--json'], p.dir);
    assert.equal(broken.code, 5, 'phases change only through the phase commands');
    assert.match(broken.stderr, /phases/);
    assert.deepEqual(state(p.dir, 'good').phases, {});
  });

  it("a lock held by a live agent times out with exit 1 (not the engine's 6) and writes nothing", (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'held'], p.dir);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    t.after(() => holder.kill('SIGKILL'));
    writeFileSync(
      join(p.dir, '.ai_log', '.baton', 'session-held.json.lock'),
      `${holder.pid}\n${hostname()}\n${Date.now()}\ntok\n\n`,
    );
    const before = state(p.dir, 'held');
    const r = baton(['phase', 'start', 'held', '0-a', '--agent', 'x'], p.dir, { BATON_LOCK_TIMEOUT_MS: '400' });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(messageLines(r.stderr).length, 1);
    assert.deepEqual(state(p.dir, 'held'), before);
  });
});
