import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton as run } from '../helpers/cli.js';
import { prompt, sandbox, script, tool, transcript } from './helpers.js';

// The goal tools' files and the transcript the Stop hook reads are bounded (docs/guarantees.md,
// "Budgets and limits"). Before, a FIFO at state.md hung the command: the two-minute kill below is
// the failed assertion there, not a timing.
function started() {
  const box = sandbox();
  assert.equal(script(box, 'goal.sh', ['start', 'docs-pass', 'Rewrite the user guide']).status, 0);
  writeFileSync(join(box.root, 'active'), `slug=docs-pass\ndir=${box.work}\nsession=s1\n`);
  return { ...box, state: join(box.root, 'docs-pass', 'state.md') };
}

function baton(box: ReturnType<typeof started>, args: string[], input = '', env: NodeJS.ProcessEnv = {}) {
  const r = run(args, { cwd: box.work, baseEnv: box.env, env, input, killAfterMs: 120_000 });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

test('a goal state.md past 16 MiB, or a FIFO in its place, is refused by name (goal.sh exit 1), never read whole', () => {
  const box = started();
  truncateSync(box.state, 20 * 1024 * 1024);
  for (const args of [['list'], ['touch']]) {
    const r = baton(box, ['goal', ...args]);
    assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /goal file .*docs-pass\/state\.md is larger than 16 MiB, the most baton reads of it; .*shorten it/,
    );
  }
  rmSync(box.state);
  assert.equal(spawnSync('mkfifo', [box.state]).status, 0);
  const fifo = baton(box, ['goal', 'list']);
  assert.equal(fifo.status, 1, fifo.stderr);
  assert.match(fifo.stderr, /state\.md\) is a FIFO, not a regular file/);
});

test('goal list with one goal refused by a bounded read lists the others and a row naming the problem and the fix (exit 1)', () => {
  const box = started();
  assert.equal(script(box, 'goal.sh', ['start', 'api-fix', 'Fix the API']).status, 0);
  truncateSync(box.state, 20 * 1024 * 1024);
  const check = (r: ReturnType<typeof baton>, problem: RegExp) => {
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^\* api-fix +active +updated \S+ +Fix the API$/m);
    const row = r.stdout.split('\n').find((l) => l.includes('docs-pass'));
    assert.match(row ?? '', /^ {2}docs-pass +unreadable: goal file .*docs-pass\/state\.md/);
    assert.match(row ?? '', problem);
    assert.match(row ?? '', /move it aside/);
    assert.match(r.stdout, /^active: api-fix /m);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /docs-pass\/state\.md.*what could be read is listed above/);
  };
  check(baton(box, ['goal', 'list']), /larger than 16 MiB/);
  rmSync(box.state);
  assert.equal(spawnSync('mkfifo', [box.state]).status, 0);
  check(baton(box, ['goal', 'list']), /is a FIFO, not a regular file/);
});

test("the goal Stop hook reads at most 64 MiB of a transcript's tail; past it, silent (goal hooks never block) and logged", () => {
  const box = started();
  const log = join(box.base, 'hooks.log');
  const small = transcript(box, 'e.jsonl', [prompt('go'), tool('Edit', `${box.work}/src.py`)]);
  const payload = (path: string) => JSON.stringify({ session_id: 's1', transcript_path: path, cwd: box.work });
  // Within the bound the hook works as before.
  const ok = baton(box, ['hook', 'Stop', '--profile', 'orchestrate'], payload(small), { BATON_DEBUG_LOG: log });
  assert.match(ok.stdout, /Orchestrate state check/);
  // 100 MiB without a newline: no turn wrote that; it was read whole before.
  const huge = join(box.base, 'huge.jsonl');
  writeFileSync(huge, '');
  truncateSync(huge, 100 * 1024 * 1024);
  const r = baton(box, ['hook', 'Stop', '--profile', 'orchestrate'], payload(huge), { BATON_DEBUG_LOG: log });
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  assert.match(
    readFileSync(log, 'utf8'),
    /Stop did nothing, allowing: the last 3000 lines of transcript .*huge\.jsonl is larger than 64 MiB, the most baton reads of it/,
  );
});
