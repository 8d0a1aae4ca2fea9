/**
 * What needs the built CLI as a process: each document command end to end, jq's own output
 * compared, git, a pipe closed early, and a commit seen from another process. The contracts
 * themselves run in-process in commands.unit.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { baton, batonAsync, BIN, jq, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const read = (dir: string, path: string) => JSON.parse(readFileSync(join(dir, path), 'utf8'));

describe('baton CLI', () => {
  it('the built CLI runs each document command end to end, with its exit codes', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const run = (...args: string[]) => baton(args, { cwd: dir });
    assert.equal(run('init', 'd.json', '--argjson', 'n', '1').code, 0);
    assert.equal(run('update', 'd.json', '.n += 1').code, 0);
    assert.equal(run('set', 'd.json', 'tag', 'x').code, 0);
    assert.equal(run('append', 'd.json', 'list', 'a').code, 0);
    assert.deepEqual(read(dir, 'd.json'), { n: 2, tag: 'x', list: ['a'] });
    assert.deepEqual([run('consume', 'd.json', 'tag').stdout, run('get', 'd.json', '.n').stdout], ['x\n', '2\n']);
    assert.equal(run('history', 'd.json').stdout.trim().split('\n').length, 5);
    assert.equal(run('show', 'd.json', '--rev', '1').stdout.trim(), '{\n  "n": 1\n}');
    assert.equal(run('revert', 'd.json', '--rev', '1').code, 0);
    assert.deepEqual(read(dir, 'd.json'), { n: 1 });
    assert.equal(run('doctor').code, 0);
    assert.equal(run('clear', 'd.json').code, 0);
    assert.equal(existsSync(join(dir, 'd.json')), false);
    const missing = run('update', 'd.json', '.n = 1');
    assert.deepEqual([missing.code, messageLines(missing.stderr).length], [1, 1]);
    assert.equal(run('update', 'd.json').code, 2);
  });

  it('get prints like jq -c', (t) => {
    const { dir, cleanup } = tempTree({
      'doc.json': '{"a":{"b":[1,"two",null]},"s":"text","n":null,"f":false}\n',
    });
    t.after(cleanup);
    const input = readFileSync(join(dir, 'doc.json'), 'utf8');
    for (const expr of [
      '.',
      '.a',
      '.a.b[]',
      '.s',
      '.n',
      '.f',
      '.missing',
      '.a.b | length',
      '[.a.b[] | select(. != null)]',
    ]) {
      assert.equal(baton(['get', 'doc.json', expr], { cwd: dir }).stdout, jq(['-c', expr], input).stdout, expr);
    }
  });
});

describe('baton CLI: more bad input', () => {
  it('history and locks stay out of git: .baton/ ignores itself', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    spawnSync('git', ['init', '-q'], { cwd: dir });
    baton(['init', 'state/doc.json'], { cwd: dir });
    baton(['set', 'state/doc.json', 'a', '1'], { cwd: dir });
    const status = spawnSync('git', ['status', '--porcelain', '-uall'], { cwd: dir, encoding: 'utf8' });
    assert.equal(status.stdout, '?? state/doc.json\n');
  });

  it('a reader that goes away early is not an error', (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const big = Object.fromEntries(Array.from({ length: 20000 }, (_, i) => [`key${i}`, 'x'.repeat(50)]));
    writeFileSync(join(dir, 'big.json'), JSON.stringify(big));
    const piped = spawnSync(
      'bash',
      [
        '-c',
        `node ${JSON.stringify(BIN)} get big.json 'to_entries[]' | head -c 10 >/dev/null; echo "$\{PIPESTATUS[0]}"`,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(piped.stdout.trim(), '0', piped.stderr);
    assert.equal(piped.stderr, '');
  });

  it('a library watcher sees commits made by another process', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'w.json', '--argjson', 'v', '0'], { cwd: dir });
    const { openDoc } = await import('../../src/index.js');
    const doc = openDoc(join(dir, 'w.json'), { cwd: dir, env: { BATON_ROOT: dir } });
    const seen: unknown[] = [];
    const stop = doc.watch((body) => seen.push(body));
    t.after(stop);
    await batonAsync(['set', 'w.json', 'v', '7', '--json'], { cwd: dir });
    // Only a bound on a wait that ends as soon as the event arrives: wide, so load cannot reach it.
    const deadline = Date.now() + 30_000;
    while (!seen.some((body) => (body as { v?: number })?.v === 7) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      seen.some((body) => (body as { v?: number })?.v === 7),
      `watch saw ${JSON.stringify(seen)}`,
    );
  });
});
