import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton } from '../helpers/cli.js';
import { displayWidth } from '../../src/cli/display-width.js';
import { tempTree } from '../helpers/fixtures.js';

// Errors that name the fix (docs/troubleshooting.md): each input a newcomer gets wrong, with its exit code.
describe('baton lint on input that is not a state file', () => {
  it('a missing file, a folder, with or without --json: exit 1 with a message, never a silent pass', async (t) => {
    const { dir, cleanup } = tempTree({ 'goal/state.md': '# s\n' });
    t.after(cleanup);
    for (const args of [['missing.md'], ['missing.md', '--json'], ['goal'], ['goal', '--json']]) {
      const result = await baton(['lint', ...args], { cwd: dir });
      assert.equal(result.code, 1, `lint ${args.join(' ')}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^baton lint: .*(does not exist|is not a file).*state\.md/);
    }
    assert.equal((await baton(['lint', 'goal/state.md'], { cwd: dir })).code, 0);
  });
});

describe('a goal state.md saved with CRLF line endings', () => {
  it('goal now and land work, the lint sees its entries, and the file keeps CRLF', async (t) => {
    const { dir, cleanup } = tempTree({ 'home/.keep': '' });
    t.after(cleanup);
    const env = { HOME: join(dir, 'home') };
    const run = (...args: string[]) => baton(args, { cwd: dir, env });
    assert.equal((await run('goal', 'start', 'crlf', 'handle windows line endings')).code, 0);
    const state = join(dir, 'home', '.claude', 'orchestrate', 'crlf', 'state.md');
    writeFileSync(state, readFileSync(state, 'utf8').replaceAll('\n', '\r\n'));
    const now = await run('goal', 'now', '-> build -> agent-1');
    assert.equal(now.code, 0, now.stderr);
    const text = readFileSync(state, 'utf8');
    assert.ok(text.includes('-> build -> agent-1\r\n'), 'the entry is in Now');
    assert.equal(text.replaceAll('\r\n', '').includes('\n'), false, 'every line still ends in CRLF');
    const lint = await run('lint', state, '--json');
    assert.equal(lint.code, 0, lint.stderr);
    assert.deepEqual(
      JSON.parse(lint.stdout).findings.filter((f: { code: string }) => f.code === 'now-empty'),
      [],
    );
    assert.equal((await run('goal', 'land', 'build', 'built it')).code, 0);
    assert.match(readFileSync(state, 'utf8'), /built it\r\n/);
  });
});

describe('documents written by other tools', () => {
  it('a JSON document with a UTF-8 byte-order mark is read; the doctor says so; the next write drops the mark', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    writeFileSync(join(dir, 'bom.json'), '\uFEFF{"a":1}\n');
    assert.deepEqual(Object.values(await baton(['get', 'bom.json', '.a'], { cwd: dir })), [0, '1\n', '']);
    assert.equal((await baton(['update', 'bom.json', '.a += 1'], { cwd: dir })).code, 0);
    assert.equal(readFileSync(join(dir, 'bom.json'), 'utf8'), '{\n  "a": 2\n}\n');
    writeFileSync(join(dir, 'bom.json'), '\uFEFF{"a":3}\n');
    const doctor = await baton(['doctor', dir], { cwd: dir });
    assert.match(doctor.stdout, /bom\.json parses \(after its UTF-8 byte-order mark/);
  });
});

describe('baton set and append: the type of VALUE', () => {
  it('comes from the schema at PATH, else the value already there, else a string; --json forces JSON', async (t) => {
    const schema = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        done: { type: 'boolean' },
        label: { type: 'string' },
        scores: { type: 'array', items: { type: 'number' } },
        ref: { $ref: '#/$defs/n' },
      },
      $defs: { n: { type: 'number' } },
    };
    const { dir, cleanup } = tempTree({ 's.json': JSON.stringify(schema) });
    t.after(cleanup);
    const run = (...args: string[]) => baton(args, { cwd: dir });
    assert.equal((await run('init', 'typed.json', '--schema', 's.json')).code, 0);
    for (const [path, value] of [
      ['count', '2'],
      ['done', 'true'],
      ['label', '42'],
      ['ref', '1.5'],
    ])
      assert.equal((await run('set', 'typed.json', path as string, value as string)).code, 0);
    assert.equal((await run('append', 'typed.json', 'scores', '7')).code, 0);
    assert.equal((await run('update', 'typed.json', '.count += 1')).code, 0);
    assert.deepEqual(JSON.parse((await run('get', 'typed.json')).stdout), {
      count: 3,
      done: true,
      label: '42',
      ref: 1.5,
      scores: [7],
    });
    assert.equal(
      (await run('set', 'typed.json', 'count', 'many')).code,
      3,
      'text that is not a number: the schema refuses it',
    );

    assert.equal((await run('init', 'plain.json', '--argjson', 'n', '1')).code, 0);
    assert.equal((await run('set', 'plain.json', 'n', '5')).code, 0);
    assert.equal((await run('set', 'plain.json', 'new', '5')).code, 0);
    assert.equal((await run('set', 'plain.json', 'forced', '5', '--json')).code, 0);
    assert.deepEqual(JSON.parse((await run('get', 'plain.json')).stdout), { n: 5, new: '5', forced: 5 });
  });

  it('arr[0] indexes an array, as arr.0 does', async (t) => {
    const { dir, cleanup } = tempTree({ 'a.json': '{"arr":["a","b"]}' });
    t.after(cleanup);
    assert.equal((await baton(['set', 'a.json', 'arr[1]', 'x'], { cwd: dir })).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')), { arr: ['a', 'x'] });
  });
});

describe('smaller things a newcomer trips on', () => {
  it('history says when its default of 20 cut the list short', async (t) => {
    const { dir, cleanup } = tempTree({ 'h.json': '{"n":0}' });
    t.after(cleanup);
    for (let i = 0; i < 21; i++) await baton(['update', 'h.json', '.n += 1'], { cwd: dir });
    const cut = await baton(['history', 'h.json'], { cwd: dir });
    assert.equal(cut.stdout.trim().split('\n').length, 20);
    assert.match(cut.stderr, /newest 20 revisions; --limit N/);
    assert.equal((await baton(['history', 'h.json', '--limit', '50'], { cwd: dir })).stderr, '');
  });

  it('consume of a missing field prints null, as get does', async (t) => {
    const { dir, cleanup } = tempTree({ 'c.json': '{"hint":"next"}' });
    t.after(cleanup);
    assert.equal((await baton(['consume', 'c.json', 'hint'], { cwd: dir })).stdout, 'next\n');
    assert.equal((await baton(['consume', 'c.json', 'hint'], { cwd: dir })).stdout, 'null\n');
    assert.equal((await baton(['get', 'c.json', '.hint'], { cwd: dir })).stdout, 'null\n');
  });

  it('a read of a corrupt document warns without talking of writes; a jq runtime error says how to look at the values', async (t) => {
    const { dir, cleanup } = tempTree({ 'bad.json': '{oops', 'n.json': '{"count":"2"}' });
    t.after(cleanup);
    const read = await baton(['get', 'bad.json', '.a'], { cwd: dir });
    assert.equal(read.code, 0);
    assert.match(read.stderr, /warning: bad\.json is not valid JSON/);
    assert.doesNotMatch(read.stderr, /nothing was written/);
    const update = await baton(['update', 'n.json', '.count += 1'], { cwd: dir });
    assert.equal(update.code, 2);
    assert.match(update.stderr, /cannot be added; look at the values with 'baton get n\.json'/);
  });

  it("goal start says the status file is the agent's to write", async (t) => {
    const { dir, cleanup } = tempTree({ 'home/.keep': '' });
    t.after(cleanup);
    const start = await baton(['goal', 'start', 'notes', 'write the notes'], {
      cwd: dir,
      env: { HOME: join(dir, 'home') },
    });
    assert.equal(start.code, 0, start.stderr);
    assert.match(start.stdout, /^status: +\S+\/\.claude\/status\.md \(the agent writes it; baton never does\)$/m);
  });

  it('the doctor table stays aligned with wide characters in a name', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    for (const name of ['文書.json', 'plain.json']) assert.equal((await baton(['init', name], { cwd: dir })).code, 0);
    const rows = (await baton(['doctor', dir], { cwd: dir })).stdout.trim().split('\n');
    const columns = rows.map((row) => displayWidth(row.slice(0, row.lastIndexOf('  ') + 2)));
    assert.equal(new Set(columns).size, 1, rows.join('\n'));
  });
});
