/**
 * `baton run clean`: the original's init wiped `.ai_log/`, and an orchestrator that
 * relied on that for a fresh start now asks for it explicitly. It must never take a run's state
 * (or the engine's history and locks beside it), and it refuses while another run is active.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, project, snapshot, state } from './helpers.js';
import { messageLines } from '../helpers/cli.js';

const HOUR = 3600_000;

function age(path: string, ms: number): void {
  const when = new Date(Date.now() - ms);
  utimesSync(path, when, when);
}

describe("baton run clean: the guarded replacement for init's wipe", () => {
  it('refuses while another run is active, then removes evidence but keeps every state file', (t) => {
    const p = project({ '.ai_log/.gitkeep': '', '.ai_log/phase-0-pm-prd.md': 'prd', '.ai_log/shots/a.png': 'png' });
    t.after(p.cleanup);
    const dir = join(p.dir, '.ai_log');
    baton(['run', 'init', 'mine'], p.dir);
    baton(['run', 'init', 'other'], p.dir);
    const before = snapshot(p.dir);
    for (const args of [
      ['run', 'clean', 'mine'],
      ['run', 'clean'],
    ]) {
      const r = baton(args, p.dir);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, /^Error: another run \((mine|other)\) is active; use --older-than or --force\n$/);
    }
    assert.equal(
      baton(['run', 'clean', 'mine'], p.dir).stderr,
      'Error: another run (other) is active; use --older-than or --force\n',
    );
    assert.deepEqual(snapshot(p.dir), before);

    age(join(dir, 'session-other.json'), 48 * HOUR);
    const r = baton(['run', 'clean', 'mine'], p.dir);
    assert.deepEqual(Object.values(r), [0, `pipeline-state: removed 2 entries from ${dir}\n`, '']);
    assert.deepEqual(readdirSync(dir).sort(), ['.baton', '.gitkeep', 'session-mine.json', 'session-other.json']);
    // The runs still work: their history and lock folder were left alone.
    assert.equal(baton(['run', 'set', 'other', 'k', 'v'], p.dir).code, 0);
    assert.equal(state(p.dir, 'other').k, 'v');
  });

  it('--older-than removes only old entries (even with another run active); --force removes the rest', (t) => {
    const p = project({ '.ai_log/old.log': 'old', '.ai_log/new.log': 'new', '.ai_log/old-dir/x.png': 'x' });
    t.after(p.cleanup);
    const dir = join(p.dir, '.ai_log');
    baton(['run', 'init', 'active'], p.dir);
    age(join(dir, 'old.log'), 3 * HOUR);
    age(join(dir, 'old-dir'), 3 * HOUR);
    const r = baton(['run', 'clean', '--older-than', '2h'], p.dir);
    assert.deepEqual(Object.values(r), [0, `pipeline-state: removed 2 entries from ${dir}\n`, '']);
    assert.deepEqual(readdirSync(dir).sort(), ['.baton', 'new.log', 'session-active.json']);
    const forced = baton(['run', 'clean', '--force'], p.dir);
    assert.equal(forced.stdout, `pipeline-state: removed 1 entries from ${dir}\n`);
    assert.deepEqual(readdirSync(dir).sort(), ['.baton', 'session-active.json']);
  });

  it('bad input exits 2 and removes nothing; no .ai_log/ removes nothing; the compat shim has no clean', (t) => {
    const p = project();
    t.after(p.cleanup);
    assert.deepEqual(Object.values(baton(['run', 'clean'], p.dir)), [
      0,
      `pipeline-state: removed 0 entries from ${join(p.dir, '.ai_log')}\n`,
      '',
    ]);
    mkdirSync(join(p.dir, '.ai_log'));
    writeFileSync(join(p.dir, '.ai_log', 'e.log'), 'e');
    for (const args of [['--older-than', 'soon'], ['--older-than', '-1h'], ['../x'], ['a', 'b']]) {
      const r = baton(['run', 'clean', ...args], p.dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(messageLines(r.stderr).length, 1);
    }
    assert.equal(existsSync(join(p.dir, '.ai_log', 'e.log')), true);
  });
});
