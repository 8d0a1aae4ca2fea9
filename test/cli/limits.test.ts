import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { baton as run, BIN, batonAsync, cleanEnv, type RunResult } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

// Budgets, depth and size limits (docs/guarantees.md "Budgets and limits"), through the CLI.
const trees: { cleanup(): void }[] = [];
after(() => trees.forEach((t) => t.cleanup()));

/**
 * The CLI as a real process. Without the limits some of these never end (an endless jq
 * expression, a backtracking regex), so a process still running after two minutes is killed:
 * that is a failed assertion below, not a timing measurement.
 */
function baton(cwd: string, ...args: string[]): RunResult {
  return run(args, { cwd, env: { BATON_LOCK_TIMEOUT_MS: '3000' }, killAfterMs: 120_000 });
}

function project(config?: object): string {
  const tree = tempTree(config ? { 'baton.config.json': JSON.stringify(config) } : {});
  trees.push(tree);
  assert.equal(baton(tree.dir, 'init', 'c.json', '--argjson', 'n', '0', '--argjson', 'arr', '[]').code, 0);
  return tree.dir;
}

/** What a refused write must leave alone: the document's bytes and its history. */
function snapshot(dir: string): { doc: string; history: string } {
  return { doc: readFileSync(join(dir, 'c.json'), 'utf8'), history: baton(dir, 'history', 'c.json', '--json').stdout };
}

function assertUntouchedAndUnlocked(dir: string, before: { doc: string; history: string }): void {
  assert.deepEqual(snapshot(dir), before, 'the document and its history are unchanged');
  // The lock was released: the next writer gets it at once (BATON_LOCK_TIMEOUT_MS is 3 s).
  assert.equal(baton(dir, 'update', 'c.json', '.n += 1').code, 0);
  assert.equal(baton(dir, 'get', 'c.json', '.n').stdout, '1\n');
}

for (const expr of [
  'last(range(infinite))',
  '[range(1e9)]',
  '.x = [range(1e9)]',
  'reduce range(40) as $i ("ab"; . + .) | {}',
]) {
  test(`update '${expr}' ends on the jq budget: exit 2, nothing written, the lock free`, () => {
    const dir = project();
    const before = snapshot(dir);
    const r = baton(dir, 'update', 'c.json', expr);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /jqSteps|jqTimeoutMs|too large for memory/, 'the message names the budget');
    assertUntouchedAndUnlocked(dir, before);
  });
}

for (const expr of ['def f: f; f', 'def f: 1 + f; f', 'def f(n): if n == -1 then 0 else 1 + f(n + 1) end; f(0)']) {
  test(`update '${expr}' ends as a runaway recursion: exit 2, nothing written, the lock free`, () => {
    const dir = project();
    const before = snapshot(dir);
    const r = baton(dir, 'update', 'c.json', expr);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /recursed deeper/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /unsupported/, 'a runaway expression is not an unsupported one');
    assertUntouchedAndUnlocked(dir, before);
  });
}

// A value of 2^40 logical nodes shared by reference: every builtin that walks a value (comparing,
// sorting, serialising, merging) touches each path to each node. Each used to run for hours in
// one native call, out of reach of the step and time budgets (`tostring` reached 1.5 GB).
const DAG = 'reduce range(40) as $i (0; {a: ., b: .}) | . as $D | ';
const WALKERS = [
  '$D == $D',
  '[$D, $D] | sort',
  '[$D, $D] | unique',
  '[$D, $D] | group_by(.)',
  '$D | contains($D)',
  '$D | tostring',
  '$D | tojson',
  '$D | @json',
  '$D | @text',
  '"\\($D)"',
  '$D * $D',
  '[$D] - [$D]',
  '[$D] | index([$D])',
  '[$D, $D] | min',
  '$D | @base64',
];
// Steps only, the time budget out of the way: the outcome does not depend on the machine.
const STEPS_ONLY = ['--jq-steps', '2000000', '--jq-timeout-ms', '3600000'];

test('every builtin that walks a value counts what it touches: each ends on the step budget (exit 2)', () => {
  const dir = project();
  for (const expr of WALKERS) {
    const r = baton(dir, 'get', 'c.json', DAG + expr, ...STEPS_ONLY);
    assert.equal(r.code, 2, `${expr}: ${r.stderr}`);
    assert.match(r.stderr, /budget of 2000000 evaluation steps/, expr);
  }
});

test('an error describes a huge value by its start instead of printing it whole', () => {
  const dir = project();
  const thrown = baton(dir, 'get', 'c.json', DAG + '$D | error', ...STEPS_ONLY);
  assert.match(thrown.stderr, /\{"a":\{"a":.*\.\.\. \(not a string\)/);
  const caught = baton(dir, 'get', 'c.json', DAG + 'try ($D - 1) catch .', ...STEPS_ONLY);
  assert.equal(caught.stdout, '"object ({\\"a\\":{\\"a\\":...) and number (1) cannot be subtracted"\n');
});

test('an update stuck in a builtin ends on its budget and frees the lock: the writer waiting behind it succeeds', async (t) => {
  const dir = project();
  const lock = join(dir, '.baton', 'c.json.lock');
  // Default budgets (5 s, 20 M steps) and the default lock wait (30 s) for both writers.
  const stuck = batonAsync(['update', 'c.json', `${DAG}if $D == $D then .n = 100 else . end`], { cwd: dir });
  while (!existsSync(lock)) await new Promise((r) => setTimeout(r, 5));
  const waiting = batonAsync(['update', 'c.json', '.n += 1'], { cwd: dir });
  const [first, second] = await Promise.all([stuck, waiting]);
  t.diagnostic(`stuck update: ${first.stderr.trim()}`);
  assert.equal(first.code, 2, first.stderr);
  assert.match(first.stderr, /jqSteps|jqTimeoutMs/);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(baton(dir, 'get', 'c.json', '.n').stdout, '1\n');
});

test('global regex builtins on 600 KB answer in one pass (jq 1.6 itself takes minutes)', () => {
  const dir = project();
  // The answers are known by construction; the time budget is out of the way (a run still
  // going after two minutes is killed by baton() above, and that fails the test).
  const text = '("ab " * 200000)';
  const cases: [string, string][] = [
    [`${text} | [scan("a")] | length`, '200000'],
    [`${text} | [match("b"; "g")] | .[-1].offset`, '599998'],
    [`${text} | [splits(" ")] | length`, '200001'],
    [`${text} | gsub("a"; "x") | .[0:6]`, '"xb xb "'],
    [`${text} | [gsub("(?<l>[ab])"; .l + .l) | length]`, '[1000000]'],
  ];
  for (const [expr, expected] of cases) {
    const r = baton(dir, 'get', 'c.json', expr, '--jq-timeout-ms', '3600000');
    assert.equal(r.code, 0, `${expr}: ${r.stderr}`);
    assert.equal(r.stdout.trim(), expected, expr);
  }
  // Each match is counted: a small step budget ends the same scan.
  assert.equal(baton(dir, 'get', 'c.json', `${text} | [match("b"; "g")] | length`, '--jq-steps', '100000').code, 2);
});

test('get holds to the budget too, and --jq-steps / --jq-timeout-ms set it per call', () => {
  const dir = project();
  assert.equal(baton(dir, 'get', 'c.json', 'last(range(infinite))').code, 2);
  assert.equal(baton(dir, 'get', 'c.json', '[range(5000)] | length').stdout, '5000\n');
  const small = baton(dir, 'get', 'c.json', '[range(5000)] | length', '--jq-steps', '1000');
  assert.equal(small.code, 2);
  assert.match(small.stderr, /1000 evaluation steps \(jqSteps/);
  assert.equal(
    baton(dir, 'get', 'c.json', 'last(range(infinite))', '--jq-timeout-ms', '50', '--jq-steps', '999999999999').code,
    2,
  );
  assert.equal(baton(dir, 'update', 'c.json', '.n = ([range(5000)] | length)', '--jq-steps', '1000').code, 2);
  assert.equal(baton(dir, 'get', 'c.json', '.n').stdout, '0\n');
});

test('baton.config.json "limits" sets the project budget; a call flag overrides it; bad limits are refused', () => {
  const dir = project({ limits: { jqSteps: 1000 } });
  assert.equal(baton(dir, 'get', 'c.json', '[range(5000)] | length').code, 2);
  assert.equal(baton(dir, 'get', 'c.json', '[range(5000)] | length', '--jq-steps', '100000').stdout, '5000\n');
  writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { jqSteps: -5 } }));
  const bad = baton(dir, 'get', 'c.json', '.n');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /limits\.jqSteps/);
});

const redos = `${'a'.repeat(5000)}b`;
test('regular expressions that backtrack catastrophically answer on 5,000 characters', () => {
  const dir = project();
  assert.equal(baton(dir, 'set', 'c.json', 's', redos).code, 0);
  const cases: [string, string][] = [
    ['.s | test("^(a|a)*$")', 'false'],
    ['.s | test("^(?:a|a)*$")', 'false'],
    ['.s | test("(a+)+$")', 'false'],
    ['.s | [match("(a+)+b") | .length]', '[5001]'],
    ['.s | test("^(a|aa)+b$")', 'true'],
    ['.s | [scan("(a|a)+b")] | length', '1'],
    ['.s | gsub("(a|a)*$"; "") | length', '5001'],
  ];
  for (const [expr, expected] of cases) {
    const r = baton(dir, 'get', 'c.json', expr);
    assert.equal(r.code, 0, `${expr}: ${r.stderr}`);
    assert.equal(r.stdout.trim(), expected, expr);
  }
  // Inside an update, under a budget far smaller than a backtracking engine would need.
  assert.equal(baton(dir, 'update', 'c.json', '.ok = (.s | test("(a+)+$"))', '--jq-steps', '10000').code, 0);
  assert.equal(baton(dir, 'get', 'c.json', '.ok').stdout, 'false\n');
});

test('regex features that need backtracking are refused by name (exit 2), nothing written', () => {
  const dir = project();
  const before = snapshot(dir);
  for (const pattern of ['(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b', 'a++']) {
    const r = baton(dir, 'update', 'c.json', `.ok = ("ab" | test("${pattern.replace(/\\/g, '\\\\')}"))`);
    assert.equal(r.code, 2, pattern);
    assert.match(r.stderr, /backtracking/, pattern);
  }
  assert.deepEqual(snapshot(dir), before);
});

test('a value nested 5,000 deep through set --json or --argjson is refused with exit 4 naming the depth limit', () => {
  const dir = project();
  const before = snapshot(dir);
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  for (const args of [
    ['set', 'c.json', 'x', '--json', deep],
    ['get', 'c.json', '$v | length', '--argjson', 'v', deep],
    ['update', 'c.json', '.x = $v', '--argjson', 'v', deep],
  ]) {
    const r = baton(dir, ...args);
    assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /nested deeper than 1000 levels/, args[0]);
    assert.doesNotMatch(r.stderr, /internal error|    at /, 'no stack trace');
  }
  assert.deepEqual(snapshot(dir), before);
});

test('a 600 MB document (a sparse file) is refused as too large, exit 4, not as a permission problem', () => {
  const dir = project();
  writeFileSync(join(dir, 'big.json'), '');
  truncateSync(join(dir, 'big.json'), 600 * 1024 * 1024);
  for (const args of [
    ['get', 'big.json'],
    ['update', 'big.json', '.n = 1'],
  ]) {
    const r = baton(dir, ...args);
    assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /larger than 256 MiB/);
    assert.doesNotMatch(r.stderr, /permission/);
  }
  assert.equal(statSync(join(dir, 'big.json')).size, 600 * 1024 * 1024, 'the file is left as it was');
});

test('a 600 MB baton.config.json or schema file (sparse) is refused as too large, not read', () => {
  const dir = project();
  for (const name of ['baton.config.json', 'big.schema.json']) {
    writeFileSync(join(dir, name), '');
    truncateSync(join(dir, name), 600 * 1024 * 1024);
  }
  // An invalid configuration refuses what it governs (the task document, limits) and shows in doctor.
  const config = baton(dir, 'doctor');
  assert.notEqual(config.code, 0);
  assert.match(config.stdout + config.stderr, /baton\.config\.json is larger than 16 MiB/);
  rmSync(join(dir, 'baton.config.json'));
  const schema = baton(dir, 'init', 's.json', '--schema', './big.schema.json');
  assert.equal(schema.code, 4, schema.stderr);
  assert.match(schema.stderr, /schema file .* is larger than 16 MiB/);
});

test('baton statusline stops reading standard input at 32 MiB: /dev/zero ends with exit 4', () => {
  const dir = project();
  const zero = openSync('/dev/zero', 'r');
  try {
    const r = spawnSync(process.execPath, [BIN, 'statusline'], {
      cwd: dir,
      env: cleanEnv(),
      stdio: [zero, 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    assert.equal(r.status, 4, r.stderr);
    assert.match(r.stderr, /standard input is larger than 32 MiB/);
  } finally {
    closeSync(zero);
  }
});

test('a document nested deeper than maxDepth is refused with exit 4, not a stack overflow', () => {
  const dir = project();
  const before = snapshot(dir);
  for (const n of [100000, 300]) {
    const r = baton(dir, 'update', 'c.json', `.x = (reduce range(${n}) as $i (null; [.]))`);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /maxDepth/);
  }
  assert.equal(baton(dir, 'get', 'c.json', 'reduce range(100000) as $i (null; [.])').code, 4);
  assert.equal(
    baton(dir, 'set', 'c.json', 'x', JSON.stringify(JSON.parse('['.repeat(300) + ']'.repeat(300))), '--json').code,
    4,
  );
  assertUntouchedAndUnlocked(dir, before);
  // Within the default depth, and a project may allow more.
  assert.equal(baton(dir, 'update', 'c.json', '.x = (reduce range(200) as $i (null; [.]))').code, 0);
  writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { maxDepth: 1000 } }));
  assert.equal(baton(dir, 'update', 'c.json', '.x = (reduce range(300) as $i (null; [.]))').code, 0);
});

test('a document larger than maxDocumentBytes is refused with exit 4 and left as it was', () => {
  const dir = project();
  const before = snapshot(dir);
  const r = baton(dir, 'set', 'c.json', 'arr.20000000', '1');
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /maxDocumentBytes/);
  assert.equal(baton(dir, 'update', 'c.json', '.arr[5000000] = 1').code, 4);
  assertUntouchedAndUnlocked(dir, before);
  writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { maxDocumentBytes: 1000 } }));
  const small = snapshot(dir);
  assert.equal(baton(dir, 'update', 'c.json', '.arr = [range(500)]').code, 4);
  assert.equal(baton(dir, 'append', 'c.json', 'arr', 'x'.repeat(2000)).code, 4);
  assert.deepEqual(snapshot(dir), small);
  assert.equal(baton(dir, 'append', 'c.json', 'arr', 'x').code, 0);
});

test('a file nested deeper than baton can walk, written outside baton, reads as corrupt (exit 7) and doctor --repair restores it', () => {
  const dir = project();
  const deep = `{"n":5,"x":${'['.repeat(100000)}${']'.repeat(100000)}}\n`;
  writeFileSync(join(dir, 'c.json'), deep);
  const r = baton(dir, 'update', 'c.json', '.n += 1');
  assert.equal(r.code, 7, r.stderr);
  assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), deep, 'never wiped');
  assert.equal(baton(dir, 'doctor', '--repair').code, 0);
  assert.equal(baton(dir, 'get', 'c.json', '.n').stdout, '0\n');
  // No configuration lifts the ceiling that keeps every command off the stack's edge.
  writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { maxDepth: 5000 } }));
  assert.equal(baton(dir, 'get', 'c.json', '.n').code, 2);
});
