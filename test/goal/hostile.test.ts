import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATON_BIN, hook, sandbox, script, tool, prompt, transcript } from './helpers.js';

/** Hostile input: slugs, sentences, binary and huge files, broken transcripts, concurrency. */
test('slugs with / or .. are refused and never touch anything outside ROOT', () => {
  const box = sandbox();
  for (const slug of ['../x', 'a/b', '..', 'archive', 'active', '-a', 'a'.repeat(64), 'A']) {
    const run = script(box, 'goal.sh', ['start', slug, 'x']);
    assert.equal(run.status, 1, slug);
    assert.equal(run.stderr, `goal.sh: bad slug '${slug}' (lower-case letters, digits, '-')\n`);
  }
  assert.deepEqual(script(box, 'goal.sh', ['resume', '../x']).stderr, "goal.sh: no goal '../x' (goal.sh list)\n");
  assert.ok(!existsSync(join(box.home, 'x')));
  // A tampered pointer naming a path is no goal at all.
  script(box, 'goal.sh', ['start', 'ok', 'x']);
  writeFileSync(join(box.root, 'active'), `slug=../../evil\ndir=${box.work}\nsession=s1\n`);
  assert.equal(script(box, 'goal.sh', ['touch']).stderr, 'goal.sh: no active goal\n');
  assert.equal(hook(box, 'session-start.sh', { session_id: 's1', source: 'clear', cwd: box.work }).context, undefined);
});

test('sentences with &, backslashes, |, newlines land literally on one line', () => {
  const box = sandbox();
  const sentence = 'a & b \\1 c | d \\n e\nf';
  assert.equal(script(box, 'goal.sh', ['start', 'g', sentence]).status, 0);
  const state = readFileSync(join(box.root, 'g', 'state.md'), 'utf8');
  assert.equal(state.split('\n')[1], '# Goal: a & b \\1 c | d \\n e f');
  assert.equal(state.split('\n').length - 1, 25);
  const log = readFileSync(join(box.root, 'g', 'log.md'), 'utf8');
  assert.equal(log.split('\n').length - 1, 1, 'one log bullet');
  assert.match(log, /: a & b \\1 c \| d \\n e f\n$/);
  assert.match(script(box, 'goal.sh', ['list']).stdout, /  a & b \\1 c \| d \\n e f\n/);
  script(box, 'goal.sh', ['now', 'x & y \\2 -> l -> b -> r']);
  script(box, 'goal.sh', ['land', 'l', 'done & dusted \\3']);
  assert.match(readFileSync(join(box.root, 'g', 'state.md'), 'utf8'), /Z done & dusted \\3\n$/); // Only a newline folds; a carriage return is one of the "other characters", kept as typed.
  assert.equal(script(box, 'goal.sh', ['start', 'cr', 'a\r\nb\rc']).status, 0);
  assert.equal(readFileSync(join(box.root, 'cr', 'state.md'), 'utf8').split('\n')[1], '# Goal: a\r b\rc');
});

test('binary and huge state files: lint and hooks survive, exit 0', () => {
  const box = sandbox();
  script(box, 'goal.sh', ['start', 'g', 'x']);
  const state = join(box.root, 'g', 'state.md');
  writeFileSync(join(box.root, 'active'), `slug=g\ndir=${box.work}\nsession=s1\n`);
  writeFileSync(state, Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256)));
  const lint = script(box, 'state-lint.sh', [state]);
  assert.equal(lint.status, 0);
  assert.match(lint.stdout, /lint: now-empty/);
  assert.ok(hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: box.work }).context);
  const huge = `<!-- state: updated=x status=active -->\n## Now\n- (nothing running)\n\n## Done\n${'- 2026-01-01 10:00Z item with some text\n'.repeat(250_000)}`;
  writeFileSync(state, huge);
  const big = script(box, 'state-lint.sh', [state]);
  assert.equal(big.status, 0);
  assert.match(big.stdout, /lint: size: \d+ bytes/);
  assert.ok(hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: box.work }).context);
  const t = transcript(
    box,
    't.jsonl',
    [prompt('go'), tool('Edit', '/x')],
    '{"type":"assistant","message":{"content":[{"type":"tool_use"\n\u0000\u0001\n{]\n',
  );
  assert.ok(hook(box, 'stop.sh', { session_id: 's1', transcript_path: t, cwd: box.work }).context);
});

test('lint: no argument is usage (1); a missing file or a folder is silent (0)', () => {
  const box = sandbox();
  assert.equal(script(box, 'state-lint.sh').status, 1);
  assert.deepEqual(
    [script(box, 'state-lint.sh', ['/nonexistent']).status, script(box, 'state-lint.sh', ['/nonexistent']).stdout],
    [0, ''],
  );
  assert.deepEqual(
    [script(box, 'state-lint.sh', [box.base]).status, script(box, 'state-lint.sh', [box.base]).stdout],
    [0, ''],
  );
});

function runAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BATON_BIN, ...args], { cwd, env, stdio: 'ignore' });
    child.on('close', resolve);
  });
}

test('concurrent lands all land: locked, atomic read-modify-write', async () => {
  const box = sandbox();
  script(box, 'goal.sh', ['start', 'g', 'x']);
  const labels = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
  for (const label of labels) script(box, 'goal.sh', ['now', `[m] t -> ${label} -> b -> r`]);
  const codes = await Promise.all(
    labels.map((label) => runAsync(['goal', 'land', label, `done ${label}`], box.work, box.env)),
  );
  assert.deepEqual(
    codes,
    labels.map(() => 0),
  );
  const state = readFileSync(join(box.root, 'g', 'state.md'), 'utf8');
  assert.match(state, /## Now\n- \(nothing running\)\n\n/);
  for (const label of labels) assert.match(state, new RegExp(`Z done ${label}\\n`));
  assert.deepEqual(
    readdirSync(join(box.root, 'g')).filter((n) => n.startsWith('.state.md')),
    [],
  );
});

test('edits keep bytes that are not UTF-8: now, land, touch, pause, resume rewrite only what they change', () => {
  const box = sandbox();
  script(box, 'goal.sh', ['start', 'g', 'x']);
  const state = join(box.root, 'g', 'state.md');
  // Latin-1 text and stray bytes in the body, a UTF-8 label in Now: none may turn into U+FFFD.
  const body = Buffer.from('\n## Notes\n- caf\xe9 \xff\xfe end\n', 'latin1');
  writeFileSync(state, Buffer.concat([readFileSync(state), body]));
  assert.equal(script(box, 'goal.sh', ['now', '[m] t -> é1 -> b -> r']).status, 0);
  assert.match(script(box, 'goal.sh', ['land', 'é1', 'fixed é']).stdout, /^## Now\n- \(nothing running\)\n\n$/);
  for (const verb of ['touch', 'pause']) assert.equal(script(box, 'goal.sh', [verb]).status, 0);
  assert.equal(script(box, 'goal.sh', ['resume', 'g']).status, 0);
  const after = readFileSync(state);
  assert.ok(after.includes(body), 'the latin-1 bytes are unchanged');
  assert.ok(after.includes(Buffer.from('Z fixed é\n', 'utf8')), 'the new Done line is UTF-8');
  assert.ok(!after.includes(Buffer.from('\ufffd', 'utf8')));
  // A stray 0xA0 byte in Now is text, not a blank line: the rewrite keeps it, the lint agrees.
  writeFileSync(
    state,
    Buffer.from('<!-- state: updated=x status=active -->\n## Now\n\xa0\n- a\n\n## Next\n', 'latin1'),
  );
  script(box, 'goal.sh', ['now', 'b']);
  const tail = Buffer.from('## Now\n\xa0\n- a\n- b\n\n## Next\n', 'latin1');
  assert.deepEqual(readFileSync(state).subarray(-tail.length), tail);
  assert.doesNotMatch(script(box, 'state-lint.sh', [state]).stdout, /now-blank/);
});
