import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { baton as run, type RunResult } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { decision, eneoProject, startTask } from '../harness/helpers.js';

// Every read of a file baton keeps for itself is bounded and reads only a regular file
// (docs/guarantees.md, "Budgets and limits"): a file made huge by hand ends in one line naming
// it, the bound and the fix (exit 4), and a FIFO planted at its name is refused instead of
// blocking the command for ever. Before, a FIFO hung the command: the kill below (two minutes)
// is the failed assertion there, not a timing.
const trees: { cleanup(): void }[] = [];
after(() => trees.forEach((t) => t.cleanup()));

function baton(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  return run(args, { cwd, env: { BATON_LOCK_TIMEOUT_MS: '3000', ...env }, killAfterMs: 120_000 });
}

function project(): string {
  const tree = tempTree({});
  trees.push(tree);
  assert.equal(baton(tree.dir, ['init', 'c.json', '--argjson', 'n', '0']).code, 0);
  assert.equal(baton(tree.dir, ['update', 'c.json', '.n = 1']).code, 0);
  return tree.dir;
}

function mkfifo(path: string): void {
  rmSync(path, { force: true });
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, String(r.stderr));
}

/** A sparse file of `bytes` NULs: costs no disk, and has no newline. */
function sparse(path: string, bytes: number): void {
  writeFileSync(path, '');
  truncateSync(path, bytes);
}

const segment = (dir: string): string => {
  const history = join(dir, '.baton', 'c.json.history');
  return join(history, readdirSync(history).find((n) => n.endsWith('.jsonl')) as string);
};

test('a history segment past 256 MiB is refused by name, exit 4; the document is left as it was', () => {
  const dir = project();
  const before = readFileSync(join(dir, 'c.json'), 'utf8');
  truncateSync(segment(dir), 300 * 1024 * 1024);
  for (const args of [
    ['history', 'c.json'],
    ['update', 'c.json', '.n = 2'],
  ]) {
    const r = baton(dir, args);
    assert.equal(r.code, 4, `${args[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /history segment .*c\.json\.history\/0+1\.jsonl is larger than 256 MiB, the most baton reads of it; .*move it out of \.baton\//,
    );
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  }
  assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), before);
});

test('a FIFO planted as a history segment is refused, not waited on (exit 4)', () => {
  const dir = project();
  mkfifo(segment(dir));
  const r = baton(dir, ['history', 'c.json']);
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /history segment .* is a FIFO, not a regular file/);
});

test('a lock record past 4 KiB or a FIFO at the lock is refused at once (exit 4), not waited on as a live holder', () => {
  const dir = project();
  const lock = join(dir, '.baton', 'c.json.lock');
  sparse(lock, 8 * 1024 * 1024);
  const big = baton(dir, ['update', 'c.json', '.n = 2']);
  assert.equal(big.code, 4, big.stderr);
  assert.match(big.stderr, /lock record .*c\.json\.lock is larger than 4 KiB, .*remove the file once no baton process/);
  mkfifo(lock);
  const fifo = baton(dir, ['set', 'c.json', 'n', '3']);
  assert.equal(fifo.code, 4, fifo.stderr);
  assert.match(fifo.stderr, /lock record .* is a FIFO, not a regular file/);
  rmSync(lock);
  assert.equal(baton(dir, ['get', 'c.json', '.n']).stdout, '1\n', 'nothing was written');
});

test('metadata past 64 KiB is refused by name (exit 4)', () => {
  const dir = project();
  sparse(join(dir, '.baton', 'c.json.meta.json'), 1024 * 1024);
  const r = baton(dir, ['update', 'c.json', '.n = 2']);
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /metadata .*c\.json\.meta\.json is larger than 64 KiB.*baton doctor --repair/);
});

test('a gated hook whose mirror or wave file is oversize fails closed, naming the file and the bound', (t) => {
  const p = eneoProject();
  t.after(p.cleanup);
  startTask(p);
  assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
  // The phase mirror made huge: read as the empty word (FREE) before, which let a GREEN test write through.
  sparse(join(p.dir, '.claude', 'state', 'phase'), 2 * 1024 * 1024);
  const write = decision(
    p.hook('PreToolUse', {
      session_id: 's',
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'tests', 'test_x.py'), content: '' },
    }),
  );
  assert.equal(write.kind, 'deny');
  assert.match(write.reason, /mirror .*\.claude\/state\/phase is larger than 1 MiB/);
  assert.equal(p.task(['phase-set', 'GREEN']).code, 0, 'the mirror is rewritten by the next write');
  // The wave file made huge: read as "no wave" before, so the Stop gate let the turn end.
  sparse(join(p.dir, '.claude', 'state', 'wave.json'), 20 * 1024 * 1024);
  const stop = p.hook('Stop', { session_id: 's', hook_event_name: 'Stop', stop_hook_active: false });
  const out = JSON.parse(stop.stdout) as { decision?: string; reason?: string };
  assert.equal(out.decision, 'block');
  assert.match(out.reason ?? '', /wave\.json is larger than 16 MiB, the most baton reads of it/);
  assert.ok(statSync(join(p.dir, '.claude', 'state', 'wave.json')).size === 20 * 1024 * 1024, 'left as it was');
});

test('a bounded read gives every byte of a file, an empty file and a pipe that arrives in pieces, as text and as bytes', async () => {
  const { readBytesBounded, readFileBounded } = await import('../../src/fs/bounded-read.js');
  const tree = tempTree({});
  trees.push(tree);
  const label = { what: 'the test file', fix: 'none' };
  // Multi-byte characters, so a piece that ends inside one would show as U+FFFD.
  const text = (n: number) => `{"k":"${'é😀x'.repeat(n)}"}`;
  const check = (path: string, expected: string, options: { stream?: boolean } = {}) => {
    assert.equal(readFileBounded(path, 1 << 24, label.what, label.fix, options), expected);
    assert.deepEqual(readBytesBounded(path, 1 << 24, label, options), Buffer.from(expected));
  };
  for (const [name, content] of [
    ['small.json', text(3)],
    ['empty.json', ''],
    ['large.json', text(100_000)],
  ] as const) {
    writeFileSync(join(tree.dir, name), content);
    check(join(tree.dir, name), content);
  }
  // A pipe: its writer's 700 KB come in pieces of at most the pipe's buffer.
  const fifo = join(tree.dir, 'pipe');
  mkfifo(fifo);
  const piece = text(30_000);
  writeFileSync(join(tree.dir, 'piece'), piece);
  const writer = spawn('sh', [
    '-c',
    'for i in 1 2 3 4 5 6 7; do cat "$1"; done > "$2"',
    'sh',
    join(tree.dir, 'piece'),
    fifo,
  ]);
  const ended = new Promise((resolve) => writer.on('close', resolve));
  assert.equal(readFileBounded(fifo, 1 << 24, label.what, label.fix, { stream: true }), piece.repeat(7));
  assert.equal(await ended, 0);
});
