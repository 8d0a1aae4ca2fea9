/**
 * The document commands' contracts, in-process (npm run test:fast): output, exit codes, one-line
 * messages, history and state on disk. commands.test.ts keeps what needs a process: jq's own
 * output compared, git, a closed pipe, another process's commit, and the built CLI end to end.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const read = (dir: string, path: string) => JSON.parse(readFileSync(join(dir, path), 'utf8'));

describe('baton CLI', () => {
  it('init --schema eneo-task writes the seed shape and refuses to overwrite', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const file = '.claude/state/current-task.json';
    const made = await baton(
      [
        'init',
        file,
        '--schema',
        'eneo-task',
        '--arg',
        'slug',
        'x',
        '--arg',
        'lane',
        'deep',
        '--argjson',
        'bracket',
        '4',
        '--arg',
        'tenancy_impact',
        'none',
        '--arg',
        'audit_impact',
        'appends',
      ],
      { cwd: dir },
    );
    assert.equal(made.code, 0, made.stderr);
    const doc = read(dir, file);
    assert.equal(Object.keys(doc).length, 19);
    assert.equal(doc.bracket, 4);
    assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'FREE\n');
    assert.ok(readFileSync(join(dir, file), 'utf8').startsWith('{\n  "slug": "x",\n'));
    const again = await baton(['init', file, '--schema', 'eneo-task', '--arg', 'slug', 'y'], { cwd: dir });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists.*--force/);
    assert.equal(read(dir, file).slug, 'x');
  });

  it('get handles defaults, raw, missing and malformed files', async (t) => {
    const { dir, cleanup } = tempTree({
      'doc.json': '{"a":{"b":[1,"two",null]},"s":"text","n":null,"f":false}\n',
      'bad.json': '{"a": 1,,}',
    });
    t.after(cleanup);
    assert.equal((await baton(['get', 'doc.json', '.s', '-r'], { cwd: dir })).stdout, 'text\n');
    assert.equal((await baton(['get', 'doc.json', '.n', '-r'], { cwd: dir })).stdout, '');
    assert.equal((await baton(['get', 'doc.json', '.n', '--default', 'none'], { cwd: dir })).stdout, 'none\n');
    assert.equal((await baton(['get', 'doc.json', '.f', '--default', 'none'], { cwd: dir })).stdout, 'false\n');
    assert.equal((await baton(['get', 'doc.json', '.missing', '-r', '--default', 'd'], { cwd: dir })).stdout, 'd\n');
    const missing = await baton(['get', 'nope.json', '.a', '--default', 'x'], { cwd: dir });
    assert.deepEqual([missing.code, missing.stdout, missing.stderr], [0, 'x\n', '']);
    const malformed = await baton(['get', 'bad.json', '.a', '--default', 'x'], { cwd: dir });
    assert.equal(malformed.code, 0);
    assert.equal(malformed.stdout, 'x\n');
    assert.equal(messageLines(malformed.stderr).length, 1);
    assert.match(malformed.stderr, /not valid JSON/);
    const syntax = await baton(['get', 'doc.json', '.a |'], { cwd: dir });
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /position|column|line/i);
  });

  it('update applies jq with --arg/--argjson as data and stamps the stamp field', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 't.json', '--schema', 'eneo-task', '--arg', 'slug', 'x', '--arg', 'lane', 'deep'], {
      cwd: dir,
    });
    const before = read(dir, 't.json').last_update;
    const up = await baton(
      [
        'update',
        't.json',
        '.wave = $w | .active_agents = $a | .next_hint = $h',
        '--argjson',
        'w',
        '2',
        '--argjson',
        'a',
        '["x","y"]',
        '--arg',
        'h',
        '$(rm -rf /) "; .slug = "z',
      ],
      { cwd: dir },
    );
    assert.equal(up.code, 0, up.stderr);
    const doc = read(dir, 't.json');
    assert.deepEqual(
      [doc.wave, doc.active_agents, doc.next_hint, doc.slug],
      [2, ['x', 'y'], '$(rm -rf /) "; .slug = "z', 'x'],
    );
    assert.ok(doc.last_update >= before);
  });

  it('exit codes: usage 2, jq syntax 2, schema 3, unsafe path 4, forbidden 5, corrupt 7, missing 1', async (t) => {
    const { dir, cleanup } = tempTree({
      'bad.json': '{not json',
      'owned.schema.json': JSON.stringify({ type: 'object', 'x-baton': { owners: { phase: ['lead'] } } }),
    });
    t.after(cleanup);
    await baton(['init', 't.json', '--schema', 'eneo-task', '--arg', 'slug', 'x'], { cwd: dir });
    const snapshot = readFileSync(join(dir, 't.json'), 'utf8');
    const cases: [string[], number, RegExp][] = [
      [['update', 't.json'], 2, /usage/],
      [['update', 't.json', '.a = ', '--as', 'x'], 2, /jq|syntax/i],
      [['update', 't.json', '.tdd_phase = "BLUE"'], 3, /tdd_phase.*"BLUE".*RED/],
      [['update', 't.json', '.bracket = "four"'], 3, /bracket/],
      [['update', 't.json', '.x = $v', '--arg', 'v', 'y'.repeat(70_000)], 4, /store.*path/],
      [['update', '../outside.json', '.a = 1'], 4, /escapes/],
      // bad.json was never written by baton: no history, so doctor --repair could not help.
      [
        ['update', 'bad.json', '.a = 1'],
        7,
        /not valid JSON.*no history to restore from: fix the JSON by hand, or move the file aside and create it again with 'baton init bad\.json'$/m,
      ],
      [['update', 'nope.json', '.a = 1'], 1, /does not exist.*init/],
      [['update', 't.json', '.a = 1', '--argjson', 'j', '{bad'], 2, /invalid JSON/],
      [['frobnicate'], 2, /unknown command/],
    ];
    for (const [args, code, message] of cases) {
      const result = await baton(args, { cwd: dir });
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(messageLines(result.stderr).length, 1, `one line for ${args.join(' ')}: ${result.stderr}`);
    }
    assert.equal(readFileSync(join(dir, 't.json'), 'utf8'), snapshot);
    assert.equal(readFileSync(join(dir, 'bad.json'), 'utf8'), '{not json');
    await baton(['init', 'o.json', '--schema', 'owned.schema.json', '--argjson', 'phase', '1'], { cwd: dir });
    const forbidden = await baton(['update', 'o.json', '.phase = 2', '--as', 'intern'], { cwd: dir });
    assert.equal(forbidden.code, 5);
    assert.match(forbidden.stderr, /owners are lead/);
  });

  it('refuses a document reached through a symlink out of the project', async (t) => {
    const outside = tempTree({ 'x.json': '{"a":1}' });
    const { dir, cleanup } = tempTree();
    t.after(() => {
      cleanup();
      outside.cleanup();
    });
    symlinkSync(outside.dir, join(dir, 'link'));
    const result = await baton(['update', 'link/x.json', '.a = 2'], { cwd: dir });
    assert.equal(result.code, 4);
    assert.match(result.stderr, /symlink/);
    assert.equal(readFileSync(join(outside.dir, 'x.json'), 'utf8'), '{"a":1}');
    // A link to a document inside the project writes through to it and stays a link.
    await baton(['init', 'real/doc.json', '--argjson', 'n', '1'], { cwd: dir });
    symlinkSync('real/doc.json', join(dir, 'alias.json'));
    assert.equal((await baton(['set', 'alias.json', 'n', '2', '--json'], { cwd: dir })).code, 0);
    assert.equal(lstatSync(join(dir, 'alias.json')).isSymbolicLink(), true);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'real/doc.json'), 'utf8')), { n: 2 });
    assert.equal((await baton(['history', 'real/doc.json'], { cwd: dir })).stdout.trim().split('\n').length, 2);
  });

  it('set, append, consume and clear, with history, show and revert', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'r.json'], { cwd: dir });
    assert.equal((await baton(['set', 'r.json', 'phases.3-impl.status', 'done'], { cwd: dir })).code, 0);
    assert.equal((await baton(['append', 'r.json', 'phases.3-impl.evidence', 'a.md'], { cwd: dir })).code, 0);
    assert.equal((await baton(['set', 'r.json', 'count', '3', '--json'], { cwd: dir })).code, 0);
    assert.equal((await baton(['set', 'r.json', 'hint', '/next'], { cwd: dir })).code, 0);
    assert.deepEqual(read(dir, 'r.json'), {
      phases: { '3-impl': { status: 'done', evidence: ['a.md'] } },
      count: 3,
      hint: '/next',
    });
    assert.equal((await baton(['consume', 'r.json', 'hint'], { cwd: dir })).stdout, '/next\n');
    assert.equal(
      (await baton(['consume', 'r.json', 'hint'], { cwd: dir })).stdout,
      'null\n',
      'a consumed field reads null, as get prints it',
    );
    const history = (await baton(['history', 'r.json', '--json'], { cwd: dir })).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      history.map((e) => e.op.kind),
      ['consume', 'set', 'set', 'append', 'set', 'init'],
    );
    assert.equal(
      (await baton(['history', 'r.json', '--limit', '2'], { cwd: dir })).stdout.trim().split('\n').length,
      2,
    );
    assert.deepEqual(JSON.parse((await baton(['show', 'r.json', '--rev', '3'], { cwd: dir })).stdout), {
      phases: { '3-impl': { status: 'done', evidence: ['a.md'] } },
    });
    assert.equal((await baton(['revert', 'r.json', '--rev', '3'], { cwd: dir })).code, 0);
    assert.deepEqual(read(dir, 'r.json'), { phases: { '3-impl': { status: 'done', evidence: ['a.md'] } } });
    assert.equal((await baton(['clear', 'r.json'], { cwd: dir })).code, 0);
    assert.equal(existsSync(join(dir, 'r.json')), false);
    assert.equal((await baton(['show', 'r.json', '--rev', '99'], { cwd: dir })).code, 1);
  });

  it('records the writer from --as, else the host session', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'w.json', '--as', 'lead'], { cwd: dir });
    await baton(['set', 'w.json', 'a', '1'], { cwd: dir, env: { CLAUDE_CODE_SESSION_ID: 'sess-42' } });
    const history = (await baton(['history', 'w.json', '--json'], { cwd: dir })).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      history.map((e) => e.writer),
      ['sess-42', 'lead'],
    );
  });

  it('an outside edit is recorded as an external revision on the next write', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'e.json'], { cwd: dir });
    writeFileSync(join(dir, 'e.json'), '{"edited": true}\n');
    await baton(['set', 'e.json', 'after', 'yes'], { cwd: dir });
    const history = (await baton(['history', 'e.json', '--json'], { cwd: dir })).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      history.map((e) => e.op.kind),
      ['set', 'external', 'init'],
    );
    assert.deepEqual(JSON.parse((await baton(['show', 'e.json', '--rev', '2'], { cwd: dir })).stdout), {
      edited: true,
    });
  });
});

describe('baton CLI: more bad input', () => {
  it('names an unknown field when the schema forbids extra fields, and a bad --arg name or path', async (t) => {
    const { dir, cleanup } = tempTree({
      'strict.schema.json': JSON.stringify({
        type: 'object',
        properties: { a: { type: 'integer' } },
        additionalProperties: false,
      }),
    });
    t.after(cleanup);
    assert.equal(
      (await baton(['init', 's.json', '--schema', 'strict.schema.json', '--argjson', 'a', '1'], { cwd: dir })).code,
      0,
    );
    const before = readFileSync(join(dir, 's.json'), 'utf8');
    const extra = await baton(['update', 's.json', '.b = 2'], { cwd: dir });
    assert.equal(extra.code, 3);
    assert.match(extra.stderr, /unknown field 'b' is not allowed/);
    const badName = await baton(['update', 's.json', '.a = $x', '--arg', 'x-y', '1'], { cwd: dir });
    assert.equal(badName.code, 2);
    assert.match(badName.stderr, /not a jq identifier/);
    const control = await baton(['update', 'evil\n.json', '.a = 1'], { cwd: dir });
    assert.equal(control.code, 4);
    const unsupported = await baton(['update', 's.json', '.a = input'], { cwd: dir });
    assert.equal(unsupported.code, 2);
    assert.match(unsupported.stderr, /unsupported in baton's jq engine: input\/0: .*--arg/);
    assert.equal(readFileSync(join(dir, 's.json'), 'utf8'), before);
  });

  it('reads and no-op writes of a document that does not exist create no folders', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const file = '.claude/state/current-task.json';
    for (const args of [
      ['update', file, '.a = 1', '--if-exists'],
      ['consume', file, 'a'],
      ['clear', file],
      ['get', file],
      ['history', file],
    ]) {
      assert.equal((await baton(args, { cwd: dir })).code, 0, args.join(' '));
    }
    assert.deepEqual(readdirSync(dir), []);
    assert.equal((await baton(['update', file, '.a = 1'], { cwd: dir })).code, 1);
    assert.deepEqual(readdirSync(dir), []);
  });
});
