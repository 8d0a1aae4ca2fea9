import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { baton, batonAsync, BIN, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('concurrency and crashes (real processes)', () => {
  it('50 processes doing .counter += 1 end at 50, with 51 revisions and no temp files', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json', '--argjson', 'counter', '0'], { cwd: dir });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => batonAsync(['update', 'c.json', '.counter += 1'], { cwd: dir })),
    );
    assert.deepEqual(
      results.filter((r) => r.code !== 0),
      [],
    );
    assert.equal(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')).counter, 50);
    const history = baton(['history', 'c.json', '--limit', '100', '--json'], { cwd: dir }).stdout.trim().split('\n');
    assert.equal(history.length, 51);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('writers killed with SIGKILL at random moments leave a parseable file equal to a revision, and the next update succeeds at once', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'k.json', '--argjson', 'counter', '0'], { cwd: dir });
    for (let round = 0; round < 6; round++) {
      const children = Array.from({ length: 20 }, () =>
        spawn(process.execPath, [BIN, 'update', 'k.json', '.counter += 1 | .pad = ("x" * 2000)'], {
          cwd: dir,
          env: cleanEnv(),
          stdio: 'ignore',
        }),
      );
      const exits = children.map((child) => new Promise((resolve) => child.on('close', resolve)));
      for (const child of children) setTimeout(() => child.kill('SIGKILL'), 30 + Math.random() * 150);
      await Promise.all(exits);
      const text = readFileSync(join(dir, 'k.json'), 'utf8');
      const doc = JSON.parse(text);
      const last = JSON.parse(baton(['history', 'k.json', '--limit', '1', '--json'], { cwd: dir }).stdout);
      const atRev = baton(['show', 'k.json', '--rev', String(last.rev)], { cwd: dir });
      // History may hold one uncommitted tail line; the document must equal it or the one before.
      const before = baton(['show', 'k.json', '--rev', String(last.rev - 1)], { cwd: dir });
      assert.ok(atRev.stdout === text || before.stdout === text, `round ${round}: document is no revision in history`);
      // A dead holder's lock is taken over, not waited out: waiting it out ends in exit 6.
      const next = baton(['update', 'k.json', '.counter += 1'], { cwd: dir, env: { BATON_LOCK_TIMEOUT_MS: '15000' } });
      assert.equal(next.code, 0, next.stderr);
      assert.equal(JSON.parse(readFileSync(join(dir, 'k.json'), 'utf8')).counter, doc.counter + 1);
      const doctor = baton(['doctor', dir], { cwd: dir });
      assert.doesNotMatch(doctor.stdout, /fail.*(parses|replays|schema)/, doctor.stdout);
    }
  });

  it('a live holder is never robbed: the wait times out with exit 6 naming the holder', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'l.json'], { cwd: dir });
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    t.after(() => holder.kill('SIGKILL'));
    mkdirSync(join(dir, '.baton'), { recursive: true });
    writeFileSync(join(dir, '.baton', 'l.json.lock'), `${holder.pid}\n${hostname()}\n${Date.now()}\ntok\n\n`);
    const started = Date.now();
    const result = baton(['update', 'l.json', '.a = 1'], { cwd: dir, env: { BATON_LOCK_TIMEOUT_MS: '700' } });
    assert.equal(result.code, 6);
    assert.match(result.stderr, new RegExp(`held by pid ${holder.pid}`));
    assert.ok(Date.now() - started >= 650);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'l.json'), 'utf8')), {});
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.on('close', resolve));
    const after = baton(['update', 'l.json', '.a = 1'], { cwd: dir, env: { BATON_LOCK_TIMEOUT_MS: '2000' } });
    assert.equal(after.code, 0, after.stderr);
  });
});
