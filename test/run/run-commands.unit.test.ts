import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton, project, snapshot, state } from './helpers.js';

describe('baton run: the pipeline-state verbs', () => {
  it('init writes {session, phases} at .ai_log/session-<label>.json and prints the compat line', async (t) => {
    const p = project({ 'src/app.ts': '' });
    t.after(p.cleanup);
    const made = await baton(['run', 'init', '2026-06-30-blog'], join(p.dir, 'src'));
    const file = join(p.dir, '.ai_log', 'session-2026-06-30-blog.json');
    assert.deepEqual(
      [made.code, made.stdout, made.stderr],
      [0, `pipeline-state: initialized ${file} (session=2026-06-30-blog)\n`, ''],
    );
    assert.equal(readFileSync(file, 'utf8'), '{\n  "session": "2026-06-30-blog",\n  "phases": {}\n}\n');
    assert.equal(statSync(file).mode & 0o777, 0o644);
    const named = await baton(['run', 'init', '2026-06-30', '--name', 'blog-gating'], p.dir);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(state(p.dir, '2026-06-30-blog-gating').session, '2026-06-30-blog-gating');
  });

  it('init replaces only its own run: other sessions and their evidence survive', async (t) => {
    const p = project({ '.ai_log/.gitkeep': '', '.ai_log/phase-0-pm-prd.md': 'prd' });
    t.after(p.cleanup);
    await baton(['run', 'init', 'a'], p.dir);
    await baton(['run', 'set', 'a', 'x', '1'], p.dir);
    assert.equal((await baton(['run', 'init', 'b'], p.dir)).code, 0);
    assert.equal(state(p.dir, 'a').x, '1');
    assert.equal(readFileSync(join(p.dir, '.ai_log', 'phase-0-pm-prd.md'), 'utf8'), 'prd');
    assert.equal((await baton(['run', 'init', 'a'], p.dir)).code, 0);
    assert.deepEqual(state(p.dir, 'a'), { session: 'a', phases: {} });
  });

  it('set stores text by default, typed with --json/--number, keys literal, new keys last', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 's'], p.dir);
    for (const args of [
      ['count', '3'],
      ['pr', '42', '--number'],
      ['ok', 'false', '--json'],
      ['list', '["a",1]', '--json'],
      ['a.b', 'dotted'],
      ['empty'],
    ]) {
      const r = await baton(['run', 'set', 's', ...args], p.dir);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], args.join(' '));
    }
    const doc = state(p.dir, 's');
    assert.deepEqual(Object.keys(doc), ['session', 'phases', 'count', 'pr', 'ok', 'list', 'a.b', 'empty']);
    assert.deepEqual(
      [doc.count, doc.pr, doc.ok, doc.list, doc['a.b'], doc.empty],
      ['3', 42, false, ['a', 1], 'dotted', ''],
    );
    await baton(['run', 'set', 's', 'count', '4'], p.dir);
    assert.deepEqual(Object.keys(state(p.dir, 's')).slice(0, 3), ['session', 'phases', 'count']);
  });

  it('append builds lists, typed with --json, and refuses a non-list with the file unchanged', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 's'], p.dir);
    await baton(['run', 'append', 's', 'phase-0-evidence', '.ai_log/a.md'], p.dir);
    await baton(['run', 'append', 's', 'phase-0-evidence', '.ai_log/a.md'], p.dir);
    await baton(['run', 'append', 's', 'nums', '7', '--json'], p.dir);
    await baton(['run', 'set', 's', 'flat', 'text'], p.dir);
    assert.deepEqual(state(p.dir, 's')['phase-0-evidence'], ['.ai_log/a.md', '.ai_log/a.md']);
    assert.deepEqual(state(p.dir, 's').nums, [7]);
    const before = snapshot(p.dir);
    const bad = await baton(['run', 'append', 's', 'flat', 'x'], p.dir);
    assert.deepEqual([bad.code, bad.stderr], [1, 'Error: field flat is not a list\n']);
    assert.deepEqual(snapshot(p.dir), before);
  });

  it('get prints the document, raw strings, JSON for the rest, nothing for missing or null, and false', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'g'], p.dir);
    await baton(['run', 'set', 'g', 'text', 'docs/prd/x.md'], p.dir);
    await baton(['run', 'set', 'g', 'n', '3', '--json'], p.dir);
    await baton(['run', 'set', 'g', 'no', 'false', '--json'], p.dir);
    await baton(['run', 'set', 'g', 'nul', 'null', '--json'], p.dir);
    await baton(['run', 'set', 'g', 'obj', '{"gate":"pass","l":[1]}', '--json'], p.dir);
    await baton(['run', 'set', 'g', 'phases.x', 'flat key wins'], p.dir);
    const get = (...args: string[]) => baton(['run', 'get', 'g', ...args], p.dir);
    assert.equal((await get()).stdout, readFileSync(join(p.dir, '.ai_log', 'session-g.json'), 'utf8'));
    assert.equal((await get('text')).stdout, 'docs/prd/x.md\n');
    assert.equal((await get('n')).stdout, '3\n');
    assert.equal((await get('no')).stdout, 'false\n');
    assert.equal((await get('obj')).stdout, '{\n  "gate": "pass",\n  "l": [\n    1\n  ]\n}\n');
    assert.deepEqual([(await get('nul')).code, (await get('nul')).stdout], [0, '']);
    assert.deepEqual([(await get('missing')).code, (await get('missing')).stdout], [0, '']);
    assert.equal((await get('missing', '--default', 'none')).stdout, 'none\n');
    assert.equal((await get('obj.gate')).stdout, 'pass\n');
    assert.equal((await get('phases.x')).stdout, 'flat key wins\n');
  });

  it('writes and reads of a run that was never init-ed fail with exit 1 and create nothing', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const file = join(p.dir, '.ai_log', 'session-typo.json');
    for (const verb of ['set', 'append', 'get']) {
      const r = await baton(['run', verb, 'typo', 'f', 'v'], p.dir);
      assert.deepEqual([r.code, r.stderr], [1, `Error: no state file at ${file} (run 'init' first)\n`], verb);
    }
    assert.equal(existsSync(file), false);
  });

  it('clear deletes the file and prints the compat line, also when there is none', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'c'], p.dir);
    const file = join(p.dir, '.ai_log', 'session-c.json');
    for (let i = 0; i < 2; i++) {
      const r = await baton(['run', 'clear', 'c'], p.dir);
      assert.deepEqual([r.code, r.stdout], [0, `pipeline-state: cleared ${file}\n`]);
      assert.equal(existsSync(file), false);
    }
  });

  it('a run can be named by the state file path it was handed, which must lie in .ai_log/', async (t) => {
    const p = project({ 'sub/x': '' });
    t.after(p.cleanup);
    await baton(['run', 'init', 'p'], p.dir);
    assert.equal((await baton(['run', 'set', '.ai_log/session-p.json', 'k', 'v'], p.dir)).code, 0);
    assert.equal(
      (await baton(['run', 'get', join(p.dir, '.ai_log/session-p.json'), 'k'], join(p.dir, 'sub'))).stdout,
      'v\n',
    );
    assert.equal((await baton(['run', 'get', '../.ai_log/session-p.json', 'k'], join(p.dir, 'sub'))).stdout, 'v\n');
    // The orchestrator hands `state_file = .ai_log/session-p.json` (root-relative); an agent working
    // in a subfolder passes it exactly as received.
    assert.deepEqual(Object.values(await baton(['run', 'get', '.ai_log/session-p.json', 'k'], join(p.dir, 'sub'))), [
      0,
      'v\n',
      '',
    ]);
    assert.equal(
      (await baton(['phase', 'start', '.ai_log/session-p.json', '0-a', '--agent', 'x'], join(p.dir, 'sub'))).code,
      0,
    );
    writeFileSync(join(p.dir, 'sub', 'session-q.json'), '{}');
    for (const ref of [
      'sub/session-q.json',
      '../outside/session-p.json',
      '.ai_log/other.json',
      '.ai_log/x/session-p.json',
    ]) {
      const r = await baton(['run', 'get', ref], p.dir);
      assert.equal(r.code, 2, ref);
      assert.match(r.stderr, /^Error: state file .* is not a session-<label>\.json file directly in .*\n$/);
    }
  });

  it('the root is CLAUDE_PROJECT_DIR, else the git top level, else the working directory', async (t) => {
    const p = project({ 'a/b/.keep': '', 'plain/.keep': '' });
    t.after(p.cleanup);
    await baton(['run', 'init', 'r'], join(p.dir, 'a', 'b'));
    assert.equal(existsSync(join(p.dir, '.ai_log', 'session-r.json')), true);
    await baton(['run', 'init', 'r'], join(p.dir, 'a'), { CLAUDE_PROJECT_DIR: join(p.dir, 'plain') });
    assert.equal(existsSync(join(p.dir, 'plain', '.ai_log', 'session-r.json')), true);
    const outside = project();
    t.after(outside.cleanup);
    const dir = join(outside.dir, 'x');
    mkdirSync(dir);
    // Without any .git above it (the temp folder has none) the working directory is the root.
    rmSync(join(outside.dir, '.git'), { recursive: true });
    assert.equal((await baton(['run', 'init', 'r'], dir)).code, 0);
    assert.equal(existsSync(join(dir, '.ai_log', 'session-r.json')), true);
  });

  it('usage: a missing command or session and an unknown command exit 1 (compat); bad flags exit 2', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const usage = 'Usage: baton run <init|set|append|get|clear> <session_id> [field] [value]\n';
    assert.deepEqual(Object.values(await baton(['run'], p.dir)), [1, '', usage]);
    assert.deepEqual(Object.values(await baton(['run', 'init'], p.dir)), [1, '', usage]);
    assert.deepEqual(Object.values(await baton(['run', 'bogus', 's'], p.dir)), [
      1,
      '',
      `Unknown command: bogus\n${usage}`,
    ]);
    await baton(['run', 'init', 's'], p.dir);
    assert.deepEqual(Object.values(await baton(['run', 'set', 's'], p.dir)), [1, '', 'Error: field required\n']);
    assert.equal((await baton(['run', 'get', 's', '--bogus'], p.dir)).code, 2);
    assert.equal((await baton(['run', 'set', 's', 'f', '{bad', '--json'], p.dir)).code, 2);
    assert.equal((await baton(['run', 'set', 's', 'f', '"3"', '--number'], p.dir)).code, 2);
    assert.equal((await baton(['run', 'set', 's', 'f', 'a', 'extra'], p.dir)).code, 2);
    assert.equal((await baton(['run', 'set', 's', 'session', 'other'], p.dir)).code, 1);
    assert.equal(state(p.dir, 's').session, 's');
  });
});
