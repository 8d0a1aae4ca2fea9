import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { decision, eneoProject, startTask } from './helpers.js';

/**
 * How `baton hook` reads stdin (harness/hooks/stdin.ts) from what hosts really hand it: a shell
 * pipe (a FIFO, read without blocking), a FIFO the host never closes, nothing at all (/dev/null).
 * The in-process tests hand the front the text; these check what text the reader makes of each.
 * A host that keeps stdin open is the case the reader's time bound exists for: each such test
 * kills the hook after a generous guard, so a hang fails the test instead of stalling the run.
 */

const GUARD_MS = 60_000;

function green() {
  const p = eneoProject({ 'tests/test_a.py': 'x\n' });
  startTask(p);
  p.task(['phase-set', 'GREEN']);
  const toTests = { tool_name: 'Write', tool_input: { file_path: join(p.dir, 'tests', 'test_a.py'), content: '' } };
  const toSource = { tool_name: 'Write', tool_input: { file_path: join(p.dir, 'src', 'a.py'), content: '' } };
  return { ...p, toTests, toSource };
}

/** `baton hook EVENT` with stdin the read end of a FIFO this test writes `text` into and keeps open. */
function hookOnOpenFifo(p: ReturnType<typeof green>, event: string, text: string) {
  const fifo = join(p.dir, '.tmp', `stdin-${Math.random().toString(36).slice(2)}`);
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // Read-write: opening never blocks, and the FIFO keeps a writer (this process) until the hook ends.
  const fd = openSync(fifo, 'r+');
  writeSync(fd, text);
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'hook', event], {
      cwd: p.dir,
      env: cleanEnv(p.env),
      stdio: [fd, 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(guard);
      closeSync(fd);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

describe('baton hook stdin from a host', () => {
  it('a shell pipe (FIFO) is read to its end: GREEN test write denied, source write allowed', (t) => {
    const p = green();
    t.after(p.cleanup);
    const viaPipe = (payload: object) => {
      const r = spawnSync('sh', ['-c', `printf '%s' "$PAYLOAD" | "${process.execPath}" "${CLI}" hook PreToolUse`], {
        cwd: p.dir,
        env: cleanEnv({ ...p.env, PAYLOAD: JSON.stringify(payload) }),
        encoding: 'utf8',
      });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    assert.equal(decision(viaPipe(p.toTests)).kind, 'deny');
    assert.equal(decision(viaPipe(p.toSource)).kind, 'allow');
  });

  it('a FIFO the host never closes: the hook answers on the first complete JSON value', async (t) => {
    const p = green();
    t.after(p.cleanup);
    const denied = await hookOnOpenFifo(p, 'PreToolUse', `${JSON.stringify(p.toTests)}\n`);
    assert.equal(denied.code, 0, 'the hook ended on its own, the FIFO still open');
    assert.equal(decision(denied).kind, 'deny');
    assert.match(decision(denied).reason, /gate-green/);
    // Written in two parts (a payload split across reads): the first part alone is not yet a value.
    const text = JSON.stringify(p.toSource);
    const allowed = await hookOnOpenFifo(p, 'PreToolUse', text);
    assert.deepEqual([allowed.code, allowed.stdout], [0, '']);
  });

  it('half a payload on a FIFO that never closes is garbage once the read gives up: a gated call is denied', async (t) => {
    const p = green();
    t.after(p.cleanup);
    const half = JSON.stringify(p.toSource).slice(0, 30);
    const r = await hookOnOpenFifo(p, 'PreToolUse', half);
    assert.equal(r.code, 0);
    const answer = decision({ code: 0, stdout: r.stdout, stderr: r.stderr });
    assert.equal(answer.kind, 'deny', 'half a source write is not judged as a write to src');
    assert.match(answer.reason, /stdin was not a JSON object of at most 32 MiB/);
    // An ungated event reads the same half as nothing to decide.
    const start = await hookOnOpenFifo(p, 'SubagentStop', half);
    assert.deepEqual([start.code, start.stdout], [0, '']);
  });

  it('a payload a few bytes past 32 MiB is denied, whether a pipe or a file brings it', (t) => {
    const p = green();
    t.after(p.cleanup);
    // A whole, valid source write just over the bound: the read gets all of it in its last chunk,
    // and it must still read as garbage rather than be judged.
    const head = JSON.stringify(p.toSource).slice(0, -1);
    const file = join(p.dir, '.tmp', 'big.json');
    const bound = 32 * 1024 * 1024;
    writeFileSync(file, `${head},"pad":"${'x'.repeat(bound + 10 - head.length - 10)}"}`);
    assert.equal(statSync(file).size, bound + 10);
    for (const command of [`cat "${file}" |`, ''] as const) {
      const r = spawnSync(
        'sh',
        ['-c', `${command} "${process.execPath}" "${CLI}" hook PreToolUse ${command ? '' : `< "${file}"`}`],
        {
          cwd: p.dir,
          env: cleanEnv(p.env),
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, r.stderr);
      const answer = decision({ code: 0, stdout: r.stdout, stderr: r.stderr });
      assert.equal(answer.kind, 'deny', command || 'a file');
      assert.match(answer.reason, /\[baton rule bad-payload\]/);
    }
  });

  it('no stdin at all (/dev/null): a gated call is denied, SessionStart still gives the resume line', (t) => {
    const p = green();
    t.after(p.cleanup);
    const run = (event: string) =>
      spawnSync(process.execPath, [CLI, 'hook', event], {
        cwd: p.dir,
        env: cleanEnv(p.env),
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    const pre = run('PreToolUse');
    assert.equal(decision({ code: 0, stdout: pre.stdout, stderr: pre.stderr }).kind, 'deny');
    assert.match(run('SessionStart').stdout, /^Resume: demo/);
  });
});
