import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { runStatusline } from '../../src/harness/statusline/statusline.js';
import { cacheDir } from '../../src/harness/statusline/cache.js';

// `baton statusline` as the host runs it: a fresh process, status JSON on stdin, real git repos.
const TASK = {
  slug: 'demo',
  phase: 1,
  phase_total: 2,
  wave: 1,
  wave_total: 2,
  wave_status: { 1: 'in_progress' },
  tdd_phase: 'RED',
  active_agents: [],
  status: 'in_progress',
  next_hint: '/eneo-verify',
};

// git gets 150 ms by default, which a loaded machine can exceed: these repos give it a minute, so
// the counts asserted never depend on the load (the default bound is tested with a slow git).
const PATIENT = JSON.stringify({ statusline: { gitTimeoutMs: 60_000 } });

function repo(files: Record<string, string> = {}) {
  const tree = tempTree({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'baton.config.json': PATIENT, ...files });
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
      cwd: tree.dir,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  };
  git('init', '-q', '-b', 'feature/x');
  git('add', '.');
  git('commit', '-qm', 'init');
  return { ...tree, git };
}

function run(dir: string, payload: unknown, env: Record<string, string> = {}) {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return baton(['statusline'], { cwd: dir, input, env: { NO_COLOR: '1', TMPDIR: join(dir, '.tmp'), ...env } });
}

test('two lines from a real repo and task document; untracked files not counted', (t) => {
  const r = repo({ '.claude/state/current-task.json': JSON.stringify(TASK) });
  t.after(r.cleanup);
  mkdirSync(join(r.dir, '.tmp'));
  writeFileSync(join(r.dir, 'a.txt'), 'staged\n');
  r.git('add', 'a.txt');
  writeFileSync(join(r.dir, 'b.txt'), 'changed\n');
  writeFileSync(join(r.dir, 'c.txt'), 'changed\n');
  writeFileSync(join(r.dir, 'new.txt'), 'untracked\n');
  const result = run(r.dir, {
    model: { display_name: 'Opus 4.7' },
    session_id: 's1',
    workspace: { current_dir: r.dir, project_dir: r.dir },
    context_window: { used_percentage: 42 },
    cost: { total_duration_ms: 720_000 },
  });
  assert.equal(result.code, 0);
  assert.equal(result.stderr, '');
  const name = r.dir.split('/').pop();
  assert.equal(
    result.stdout,
    `[Opus 4.7] ${name} · ⎇ feature/x · +1 · ~2 · 42% ctx · 12m\ndemo · p1/2 · w1/2 [▒░] · RED · → /eneo-verify\n`,
  );
});

test('colours by default, cost only with the configured variable', (t) => {
  const r = tempTree({ 'baton.config.json': JSON.stringify({ statusline: { costEnv: 'MY_COST' } }) });
  t.after(r.cleanup);
  const payload = { workspace: { current_dir: r.dir, project_dir: r.dir }, cost: { total_cost_usd: 0.5 } };
  const colored = baton(['statusline'], { cwd: r.dir, input: JSON.stringify(payload), env: { TMPDIR: r.dir } });
  assert.match(colored.stdout, /^\x1b\[1m\[Claude\]\x1b\[0m /);
  assert.ok(!colored.stdout.includes('$'));
  assert.match(run(r.dir, payload, { MY_COST: '1' }).stdout, / · \$0\.50\n$/);
  assert.ok(
    !run(r.dir, payload, { ENEO_STATUSLINE_SHOW_COST: '1' }).stdout.includes('$'),
    'the default variable is replaced by the configured one',
  );
});

test('task document: CLAUDE_PROJECT_DIR, then cwd; config documents.task.path; garbage omitted', (t) => {
  const r = tempTree({
    'sub/.keep': '',
    'custom/task.json': JSON.stringify({ slug: 'custom' }),
    'other/.claude/state/current-task.json': JSON.stringify({ slug: 'env-root' }),
  });
  t.after(r.cleanup);
  const payload = { workspace: { current_dir: join(r.dir, 'sub') } };
  assert.equal(run(r.dir, payload).stdout, '[Claude] sub\n', 'no task: line 1 only');
  assert.equal(run(r.dir, payload, { CLAUDE_PROJECT_DIR: join(r.dir, 'other') }).stdout, '[Claude] sub\nenv-root\n');
  writeFileSync(
    join(r.dir, 'baton.config.json'),
    JSON.stringify({ documents: { task: { path: 'custom/task.json' } } }),
  );
  assert.equal(
    run(r.dir, { ...payload, workspace: { ...payload.workspace, project_dir: r.dir } }).stdout,
    '[Claude] sub\ncustom\n',
  );
  writeFileSync(join(r.dir, 'custom/task.json'), '{"slug": "trunc');
  assert.equal(
    run(r.dir, { workspace: { current_dir: r.dir, project_dir: r.dir } }).stdout,
    `[Claude] ${r.dir.split('/').pop()}\n`,
  );
});

test('garbage or empty stdin still prints line 1 and exits 0', (t) => {
  const r = tempTree();
  t.after(r.cleanup);
  for (const input of ['', 'garbage', '[]', '{"model": 7}', '\u0000\u0001']) {
    const result = run(r.dir, input);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `[Claude] ${r.dir.split('/').pop()}\n`, JSON.stringify(input));
  }
});

test('git counts are cached 5 s per session and folder; the branch is always fresh', (t) => {
  const r = repo();
  t.after(r.cleanup);
  mkdirSync(join(r.dir, '.tmp'));
  const payload = (session: string) => ({ session_id: session, workspace: { current_dir: r.dir } });
  writeFileSync(join(r.dir, 'a.txt'), 'x\n');
  assert.match(run(r.dir, payload('s')).stdout, / · ~1\n$/);
  writeFileSync(join(r.dir, 'b.txt'), 'x\n');
  r.git('checkout', '-q', '-b', 'next');
  assert.match(run(r.dir, payload('s')).stdout, /⎇ next · ~1\n$/, 'cached counts, fresh branch');
  assert.match(run(r.dir, payload('other')).stdout, / · ~2\n$/, 'another session has its own cache');
  const dir = cacheDir({ TMPDIR: join(r.dir, '.tmp') }) as string;
  const old = (Date.now() - 6000) / 1000;
  for (const file of readdirSync(dir)) utimesSync(join(dir, file), old, old);
  assert.match(run(r.dir, payload('s')).stdout, / · ~2\n$/, 'recomputed after the TTL');
  r.git('checkout', '-q', '--detach');
  assert.equal(
    run(r.dir, payload('s')).stdout,
    `[Claude] ${r.dir.split('/').pop()} · ~2\n`,
    'detached: no branch segment',
  );
});

test('outside git: no git segments, nothing spawned', (t) => {
  const r = tempTree();
  t.after(r.cleanup);
  const result = run(r.dir, { session_id: 'x', workspace: { current_dir: join(r.dir, 'missing') } });
  assert.equal(result.stdout, '[Claude] missing\n');
});

test('a failing run prints the last good output instead of a blank line', async (t) => {
  const r = tempTree();
  t.after(r.cleanup);
  const env = { TMPDIR: r.dir, NO_COLOR: '1' };
  const stdin = JSON.stringify({
    session_id: 'fail-1',
    model: { display_name: 'Opus' },
    workspace: { current_dir: '/x/proj' },
  });
  const good = await runStatusline({ stdin, env, cwd: r.dir });
  assert.equal(good, '[Opus] proj\n');
  // A fault injected through the environment: any read of it throws halfway through rendering.
  const broken = new Proxy(env, {
    get: (target, key) =>
      key === 'TMPDIR'
        ? target.TMPDIR
        : (() => {
            throw new Error('boom');
          })(),
  });
  assert.equal(await runStatusline({ stdin, env: broken, cwd: r.dir }), good);
  const fresh = JSON.stringify({ session_id: 'never-rendered', model: { display_name: 'Opus' } });
  assert.equal(
    await runStatusline({ stdin: fresh, env: broken, cwd: r.dir }),
    '[Opus]\n',
    'no last good yet: at least the model',
  );
  assert.equal(readFileSync(join(cacheDir(env) as string, 'fail-1.last'), 'utf8'), good);
});

// The host debounces at 300 ms and cancels a run still going; how fast a run is belongs to
// `npm run bench` (bench/suites/statusline.mjs). What a test can hold without a clock: a slow git
// does not hold the status line up past its bound (150 ms unless statusline.gitTimeoutMs says
// otherwise); the line is printed without the counts instead.
test('a slow git is not waited for past statusline.gitTimeoutMs (150 ms by default)', (t) => {
  const r = repo();
  t.after(r.cleanup);
  mkdirSync(join(r.dir, '.tmp'));
  mkdirSync(join(r.dir, '.bin'));
  // Answers a modified file after 1 s; exec keeps it one process, so the timeout's kill ends it.
  writeFileSync(
    join(r.dir, '.bin', 'git'),
    `#!/bin/sh\nexec perl -e 'select(undef, undef, undef, 1); print " M a.txt\\0"'\n`,
    { mode: 0o755 },
  );
  const env = { PATH: `${join(r.dir, '.bin')}:${process.env.PATH ?? ''}` };
  const name = r.dir.split('/').pop();
  writeFileSync(join(r.dir, 'baton.config.json'), '{}');
  assert.equal(
    run(r.dir, { session_id: 'slow-1', workspace: { current_dir: r.dir } }, env).stdout,
    `[Claude] ${name} · ⎇ feature/x\n`,
  );
  writeFileSync(join(r.dir, 'baton.config.json'), PATIENT);
  assert.equal(
    run(r.dir, { session_id: 'slow-2', workspace: { current_dir: r.dir } }, env).stdout,
    `[Claude] ${name} · ⎇ feature/x · ~1\n`,
  );
});
