import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, sandbox, script } from './helpers.js';

/** `baton lint --json` and `--fix`, and the transcript reader, as real processes. */
const DRIFTED = [
  '<!-- state: updated=2025-01-01T00:00:00Z status=active -->',
  '# Goal: g',
  '## Now',
  '',
  '',
  '## Next',
  '- x',
  '## Decided',
  '- use tabs',
  '## Done',
  '- 2025-03-02 10:00Z b',
  '- 2025-03-01 10:00Z a',
  '- scan1 finished',
  '- fix2 finished',
  '',
].join('\n');

test('--json lists code and message per finding', () => {
  const box = sandbox();
  const state = join(box.base, 'state.md');
  writeFileSync(state, DRIFTED);
  const run = baton(box, ['lint', state, '--json']);
  assert.equal(run.status, 0);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(
    out.findings.map((f: { code: string }) => f.code),
    ['now-blank', 'now-empty', 'decided-unattributed', 'done-order', 'marker-stale'],
  );
  assert.match(out.findings[3].message, /^1 ## Done entr/);
});

test('--fix repairs the mechanical codes, says what it changed, leaves the rest', () => {
  const box = sandbox();
  const state = join(box.base, 'state.md');
  const log = join(box.base, 'log.md');
  writeFileSync(state, DRIFTED);
  writeFileSync(log, '- 2025-03-01T08:00:00Z scan1: done\n- 2025-03-01T07:00:00Z fix2: done\n');
  const run = baton(box, ['lint', state, log, '--fix']);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => l.split(':').slice(0, 2).join(':')),
    ['fixed: now-blank', 'fixed: now-empty', 'fixed: done-order', 'fixed: marker-stale', 'lint: decided-unattributed'],
  );
  const fixed = readFileSync(state, 'utf8');
  assert.match(fixed, /## Now\n- \(nothing running\)\n\n## Next/);
  assert.match(fixed, /## Done\n- 2025-03-01 10:00Z a\n- 2025-03-02 10:00Z b\n- fix2 finished\n- scan1 finished\n$/);
  assert.equal(
    baton(box, ['lint', state, log, '--fix']).stdout,
    lines.at(-1) + '\n',
    'a second run has nothing to fix',
  );
});

test('transcript-text prints users, assistants and tools; --since, --tail, bad arguments', () => {
  const box = sandbox();
  const t = join(box.base, 't.jsonl');
  const recs = [
    { type: 'user', timestamp: '2026-03-04T09:00:00.123Z', message: { content: 'hello\nthere' } },
    { type: 'user', isMeta: true, timestamp: '2026-03-04T09:00:01Z', message: { content: 'meta' } },
    {
      type: 'assistant',
      timestamp: '2026-03-04T09:01:00Z',
      message: {
        content: [
          { type: 'thinking', thinking: 'x' },
          { type: 'text', text: 'ok' },
          { type: 'tool_use', name: 'Bash', input: { command: `ls\n${'y'.repeat(200)}` } },
        ],
      },
    },
    { type: 'user', timestamp: '2026-03-04T09:02:00Z', message: { content: [{ type: 'tool_result', content: 'r' }] } },
  ];
  writeFileSync(t, recs.map((r) => JSON.stringify(r)).join('\n') + '\n{broken\n');
  const run = script(box, 'transcript-text.sh', [t]);
  assert.equal(run.status, 0);
  const lines = run.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    '[2026-03-04T09:00:00Z] USER: hello',
    'there',
    '[2026-03-04T09:01:00Z] CLAUDE: ok',
  ]);
  assert.equal(lines[3], `[2026-03-04T09:01:00Z] TOOL Bash: ls ${'y'.repeat(157)}`);
  assert.equal(
    script(box, 'transcript-text.sh', [t, '--since', '2026-03-04T09:01']).stdout.split('\n')[0],
    '[2026-03-04T09:01:00Z] CLAUDE: ok',
  );
  assert.equal(script(box, 'transcript-text.sh', [t, '--tail', '1']).stdout, `${lines[3]}\n`);
  assert.deepEqual(
    [
      script(box, 'transcript-text.sh', [t, '--bogus']).status,
      script(box, 'transcript-text.sh', [t, '--bogus']).stderr,
    ],
    [2, 'unknown argument: --bogus\n'],
  );
  assert.equal(script(box, 'transcript-text.sh').status, 1);
});
