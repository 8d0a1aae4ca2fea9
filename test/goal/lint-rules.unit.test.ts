import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lintState } from '../../src/goal/lint/lint-file.js';
import { formatFinding } from '../../src/goal/lint/lint-context.js';
import { RULES } from '../../src/goal/lint/rules/all-rules.js';
import { initialState } from '../../src/goal/template.js';
import { isoSeconds } from '../../src/core/iso-time.js';
import { tempFile } from './helpers.js';

/** In-process lint: each code fires on a crafted file and stays silent on a clean one. */
function lint(
  content: string,
  options: { log?: string; sidecar?: boolean; env?: NodeJS.ProcessEnv; path?: string } = {},
): string[] {
  const state = options.path ?? tempFile('state.md', content);
  if (options.path) writeFileSync(state, content);
  const log = options.log === undefined ? undefined : join(dirname(state), 'log.md');
  if (log) writeFileSync(log, options.log as string);
  const sidecar = options.sidecar ? join(dirname(state), '.lint') : undefined;
  const findings = lintState(state, {
    logPath: log,
    sidecarPath: sidecar,
    env: { HOME: '/nonexistent', ...options.env },
    goalTool: 'goal.sh',
  });
  return (findings ?? []).map(formatFinding);
}

const marker = () => `<!-- state: updated=${isoSeconds()} status=active -->`;
const file = (...sections: string[]) => `${marker()}\n# Goal: g\n\n${sections.join('\n')}\n`;

test("the twelve codes are registered in the original lint's output order, each with id and check", () => {
  assert.deepEqual(
    RULES.map((r) => r.id),
    [
      'now-blank',
      'now-empty',
      'now-finished',
      'pending-but-done',
      'decided-events',
      'decided-unattributed',
      'done-order',
      'size',
      'done-long',
      'head-long',
      'marker-stale',
      'section-stale',
    ],
  );
});

test('a fresh start template is clean, sidecar included', () => {
  assert.deepEqual(lint(initialState('Rewrite the guide'), { log: '', sidecar: true }), []);
});

test('L1 now-blank and now-empty fire; a single separator line is fine', () => {
  assert.deepEqual(lint(file('## Now', '', '', '## Next', '- x')), [
    'lint: now-blank: 1 blank line(s) inside ## Now; one entry per line, none blank',
    "lint: now-empty: ## Now has no entry; when nothing runs it holds '- (nothing running)'",
  ]);
  assert.deepEqual(lint(file('## Now', '- (nothing running)', '', '## Next', '- x')), []);
});

test('L2 now-finished: only the entry whose report exists, cut at " (", never an empty report', () => {
  const state = tempFile('state.md', '');
  mkdirSync(join(dirname(state), 'reports'));
  writeFileSync(join(dirname(state), 'reports', 'scan1.md'), 'r');
  const content = file(
    '## Now',
    '- [haiku] scan -> scan1 -> briefs/scan1.md -> reports/scan1.md',
    '- [haiku] x -> o2 -> b -> reports/o2.md (late)',
    '- [haiku] y -> empty -> b -> ',
    '',
    '## Next',
  );
  assert.deepEqual(lint(content, { path: state }), [
    'lint: now-finished: scan1 has its report; it has returned: goal.sh land scan1',
  ]);
  writeFileSync(join(dirname(state), 'reports', 'o2.md'), 'r');
  assert.equal(lint(content, { path: state }).length, 2);
});

test('L3 pending-but-done names each finished number per section, sorted as strings', () => {
  const content = file(
    '## Now',
    '- (nothing running)',
    '',
    '## Queue',
    '- #21 follow-up',
    '- #3 other',
    '## Done',
    '- 2025-03-01 09:00Z PR #21 merged',
  );
  assert.deepEqual(lint(content), [
    'lint: pending-but-done: ## Queue names #21, which Done or Decided records as merged or closed',
  ]);
  const swallow = file(
    '## Now',
    '- (nothing running)',
    '',
    '## Next',
    '- #4 #9 #14 #7',
    '## Decided',
    '- #4 closed; unmerged #9 (a, 2025-01-01)',
    '- #14 merged; #7 closed (a, 2025-01-01)',
  );
  assert.deepEqual(
    lint(swallow).map((l) => l.split(' names ')[1]?.split(',')[0]),
    ['#14', '#4', '#7'],
  );
  assert.deepEqual(
    lint(
      file(
        '## Now',
        '- (nothing running)',
        '',
        '## Queue',
        '- #21 follow-up',
        '## Done',
        '- 2025-03-01 09:00Z PR #22 merged',
      ),
    ),
    [],
  );
});

test('L4 decided-events and decided-unattributed; the template placeholder counts as attributed', () => {
  const content = file(
    '## Now',
    '- (nothing running)',
    '',
    '## Decided',
    '- reviewer (opus): APPROVE (bob, 2025-03-01)',
    '- use tabs',
  );
  assert.deepEqual(lint(content), [
    'lint: decided-events: 1 ## Decided line(s) read as events (merges, reviews, agent returns); they belong in Done or the log',
    "lint: decided-unattributed: 1 ## Decided line(s) lack '(<who>, YYYY-MM-DD)'; a ruling names who made it, anything else is not a ruling",
  ]);
  const clean = [
    '- a (user, 2026-01-05)',
    '- b (ana,2031)',
    '- c (<who>, <YYYY-MM-DD>)',
    '- d (bo, 2026-01-05, by chat)',
  ];
  assert.deepEqual(lint(file('## Now', '- (nothing running)', '', '## Decided', ...clean)), []);
  for (const bad of ['- e (user)', '- f (me, unconfirmed)', '- g']) {
    assert.equal(lint(file('## Now', '- (nothing running)', '', '## Decided', bad)).length, 1, bad);
  }
});

const L5 =
  '## Now\n- (nothing running)\n\n## Done\n- 2025-03-02 10:00Z b\n- 2025-03-01 10:00Z a\n- scan1 finished\n- fix2 finished\n';
const L5_LOG = '- 2025-03-01T08:00:00Z scan1: done\n- 2025-03-01T07:00:00Z fix2: done\n';

test('L5 done-order counts stamp and log-time inversions independently', () => {
  const msg = (n: number) =>
    `lint: done-order: ${n} ## Done entr(y/ies) sit above an older one; append each at the end of Done`;
  assert.deepEqual(lint(L5, { log: L5_LOG }), [msg(2)]);
  assert.deepEqual(lint(L5), [msg(1)]);
  assert.deepEqual(lint('## Now\n- a\n\n## Done\n- 2026-01-08 23:50Z a\n- 2026-01-09 00:10Z b\n'), []);
});

test('L6 size and done-long use their thresholds from the environment', () => {
  assert.equal(Buffer.byteLength(L5), 113);
  assert.deepEqual(lint(L5, { env: { STATE_LINT_MAX_BYTES: '50', STATE_LINT_MAX_DONE: '2' } }).slice(1), [
    'lint: size: 113 bytes (> 50); collapse each finished item to one Done line and move the detail to the log',
    'lint: done-long: 4 ## Done entries (> 2); one line per finished item, not per agent return',
  ]);
  assert.equal(lint(L5, { env: { STATE_LINT_MAX_BYTES: '', STATE_LINT_MAX_DONE: '' } }).length, 1);
});

test('L7 head-long needs the exact end line', () => {
  const head = [
    '## Now',
    '- (nothing running)',
    ...Array.from({ length: 43 }, (_, i) => `line ${String(i).padStart(2, '0')}`),
  ].join('\n');
  assert.deepEqual(lint(`${head}\n<!-- end head -->\n`), [
    `lint: head-long: the head is 45 lines, ${7 + 20 + 43 * 8} bytes (cap 40 lines, 4000 bytes); the injected copy is cut short`,
  ]);
  assert.deepEqual(lint(`${head}\n<!-- end head --> x\n`), []);
  const wide = `## Now\n- ${'x'.repeat(4000)}\n<!-- end head -->\n`;
  assert.equal(lint(wide).length, 1, 'bytes alone also count');
});

test('L8 marker-stale: old or future markers fire, ten minutes back is fine, non-dates skip', () => {
  const at = (updated: string) => `<!-- state: updated=${updated} status=active -->\n## Now\n- (nothing running)\n\n`;
  assert.deepEqual(lint(at('2025-01-01T00:00:00Z')), [
    "lint: marker-stale: updated=2025-01-01T00:00:00Z does not match the file's last change; run goal.sh touch, never type the time",
  ]);
  assert.equal(lint(at(isoSeconds(new Date(Date.now() + 600_000)))).length, 1);
  assert.deepEqual(lint(at(isoSeconds(new Date(Date.now() - 600_000)))), []);
  assert.deepEqual(lint(at('<ISO UTC>')), []);
  assert.equal(lint(at('2025-01-01')).length, 1);
  assert.deepEqual(lint(at('2025-01-01T00:00:00Z'), { env: { STATE_LINT_MARKER_SLACK: '999999999' } }), []);
});

test('L9 section-stale reports after STALE_DONE items, then counts again; placeholders never go stale', () => {
  const state = tempFile('state.md', '');
  const sidecar = join(dirname(state), '.lint');
  const withDone = (n: number, next = '- do x') =>
    file(
      '## Now',
      '- (nothing running)',
      '',
      '## Next',
      next,
      '## Queue',
      '- (none)',
      '## Done',
      ...Array.from({ length: n }, (_, i) => `- 2026-01-01 10:${String(i).padStart(2, '0')}Z item ${i}`),
    );
  assert.deepEqual(lint(withDone(0), { path: state, sidecar: true }), []);
  const first = readFileSync(sidecar, 'utf8');
  assert.match(first, /^Next [0-9a-f]{12} 0\n$/);
  const stale =
    'lint: section-stale: ## Next unchanged while Done grew by 5; re-read it and fix each line it falsifies';
  assert.deepEqual(lint(withDone(5), { path: state, sidecar: true }), [stale]);
  assert.equal(readFileSync(sidecar, 'utf8'), first.replace(' 0\n', ' 5\n'));
  assert.deepEqual(lint(withDone(5), { path: state, sidecar: true }), []);
  assert.deepEqual(lint(withDone(9), { path: state, sidecar: true }), []);
  assert.deepEqual(lint(withDone(10), { path: state, sidecar: true }), [stale]);
  assert.deepEqual(lint(withDone(20, '- do y'), { path: state, sidecar: true }), [], 'a changed section starts over');
  assert.deepEqual(lint(withDone(20), { env: { STATE_LINT_STALE_DONE: '1' } }), [], 'no sidecar, no check');
});

test('the lint reads only the first Now; a repeated same-name heading is skipped, not a terminator', () => {
  const content = `${marker()}\n## Now\n- a\n## Now\n- b\n\n## Next\n## Now\n\n\n\n`;
  assert.deepEqual(lint(content), []);
});

test('marker-stale compares whole seconds of the mtime', () => {
  const state = tempFile(
    'state.md',
    `<!-- state: updated=2025-01-01T00:15:00Z status=active -->\n## Now\n- (nothing running)\n\n`,
  );
  utimesSync(state, new Date('2025-01-01T00:30:00.900Z'), new Date('2025-01-01T00:30:00.900Z'));
  const findings = lintState(state, { env: {}, goalTool: 'goal.sh' });
  assert.deepEqual(findings, []);
});
