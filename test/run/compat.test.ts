/**
 * compat/pipeline-state/pipeline-state.sh run by bash as a real process, with `baton` on PATH,
 * exactly as an existing skill calls it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv } from '../helpers/cli.js';
import { CLI, project, SHIM, shim, state, type Project } from './helpers.js';

const USAGE = 'Usage: pipeline-state.sh <init|set|append|get|clear> <session_id> [field] [value]\n';

describe('compat/pipeline-state/pipeline-state.sh', () => {
  it('runs the original protocol: init, set, append, get, get all, clear', (t) => {
    const p = project({ '.ai_log/.gitkeep': '', '.ai_log/other-evidence.log': 'keep me' });
    t.after(p.cleanup);
    const file = join(p.dir, '.ai_log', 'session-2026-06-30-blog.json');
    assert.deepEqual(Object.values(shim(['init', '2026-06-30-blog'], p)), [
      0,
      `pipeline-state: initialized ${file} (session=2026-06-30-blog)\n`,
      '',
    ]);
    assert.equal(readFileSync(join(p.dir, '.ai_log', 'other-evidence.log'), 'utf8'), 'keep me');
    assert.deepEqual(Object.values(shim(['set', '2026-06-30-blog', 'prd_document', 'docs/prd/x.md'], p)), [0, '', '']);
    assert.equal(shim(['append', '2026-06-30-blog', 'phase-0-evidence', '.ai_log/phase-0-pm-ror-prd.md'], p).code, 0);
    assert.equal(shim(['set', '2026-06-30-blog', 'count', '3'], p).code, 0);
    assert.deepEqual(Object.values(shim(['get', '2026-06-30-blog', 'prd_document'], p)), [0, 'docs/prd/x.md\n', '']);
    assert.equal(
      shim(['get', '2026-06-30-blog', 'phase-0-evidence'], p).stdout,
      '[\n  ".ai_log/phase-0-pm-ror-prd.md"\n]\n',
    );
    assert.equal(shim(['get', '2026-06-30-blog'], p).stdout, readFileSync(file, 'utf8'));
    assert.deepEqual(state(p.dir, '2026-06-30-blog'), {
      session: '2026-06-30-blog',
      phases: {},
      prd_document: 'docs/prd/x.md',
      'phase-0-evidence': ['.ai_log/phase-0-pm-ror-prd.md'],
      count: '3',
    });
    assert.equal(statSync(file).mode & 0o777, 0o644);
    assert.deepEqual(Object.values(shim(['clear', '2026-06-30-blog'], p)), [
      0,
      `pipeline-state: cleared ${file}\n`,
      '',
    ]);
    assert.equal(existsSync(file), false);
  });

  it('every argument is positional, as in the original: flags are stored as text, extras ignored', (t) => {
    const p = project();
    t.after(p.cleanup);
    shim(['init', 's'], p);
    assert.equal(shim(['set', 's', 'flag', '--json', 'extra'], p).code, 0);
    assert.equal(shim(['set', 's', 'empty'], p).code, 0);
    assert.deepEqual([state(p.dir, 's').flag, state(p.dir, 's').empty], ['--json', '']);
  });

  it('keeps the original exit codes and messages for usage errors and missing state', (t) => {
    const p = project();
    t.after(p.cleanup);
    assert.deepEqual(Object.values(shim([], p)), [1, '', USAGE]);
    assert.deepEqual(Object.values(shim(['get'], p)), [1, '', USAGE]);
    assert.deepEqual(Object.values(shim(['show', 's'], p)), [1, '', `Unknown command: show\n${USAGE}`]);
    assert.deepEqual(Object.values(shim(['set', 's'], p)), [1, '', 'Error: field required\n']);
    const file = join(p.dir, '.ai_log', 'session-s.json');
    assert.deepEqual(Object.values(shim(['get', 's', 'x'], p)), [
      1,
      '',
      `Error: no state file at ${file} (run 'init' first)\n`,
    ]);
    assert.deepEqual(Object.values(shim(['set', 's', 'x', 'y'], p)), [
      1,
      '',
      `Error: no state file at ${file} (run 'init' first)\n`,
    ]);
    assert.equal(existsSync(file), false);
    shim(['init', 's'], p);
    shim(['set', 's', 'flat', 'v'], p);
    assert.deepEqual(Object.values(shim(['append', 's', 'flat', 'v'], p)), [
      1,
      '',
      'Error: field flat is not a list\n',
    ]);
    assert.equal(shim(['init', '../escape'], p).code, 2);
  });

  it('fails with a clear message when baton is not on PATH, and BATON_BIN names another one', (t) => {
    const p = project();
    t.after(p.cleanup);
    const r = shim(['init', 's'], { ...p, bin: join(p.dir, 'nowhere') }, { PATH: '/usr/bin:/bin' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /baton is not on PATH/);
    // As compat/eneo: a checkout without a global install points the shim at its bin/baton.js.
    const bin = shim(
      ['init', 's'],
      { ...p, bin: join(p.dir, 'nowhere') },
      { PATH: '/usr/bin:/bin', BATON_BIN: `${process.execPath} ${CLI}` },
    );
    assert.deepEqual([bin.code, bin.stderr], [0, '']);
    assert.equal(state(p.dir, 's').session, 's');
  });

  it('20 parallel `append S ev p<i>` through the shim: all exit 0 and ev has 20 entries', async (t) => {
    const p = project();
    t.after(p.cleanup);
    shim(['init', 'S'], p);
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => shimAsync(['append', 'S', 'ev', `p${i}`], p)));
    assert.deepEqual(codes, Array(20).fill(0));
    assert.deepEqual([...state(p.dir, 'S').ev].sort(), Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
  });
});

function shimAsync(args: string[], p: Project): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('bash', [SHIM, ...args], {
      cwd: p.dir,
      env: cleanEnv({ PATH: `${p.bin}:${process.env.PATH ?? ''}` }),
      stdio: 'ignore',
    });
    child.on('close', (code) => resolve(code ?? -1));
  });
}
