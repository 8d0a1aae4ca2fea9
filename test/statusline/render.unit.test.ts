import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, renderLine1, roundHalfEven } from '../../src/harness/statusline/session-line.js';
import { parseStatusInput } from '../../src/harness/statusline/input.js';
import { renderTaskLine } from '../../src/harness/statusline/task-line.js';

// Pure rendering: every colour, rounding and omission rule of the status line.
const E = (code: number) => `\x1b[${code}m`;
const R = E(0);
const plain = { color: false, showCost: false, cwd: '/work/fallback' };
const colored = { ...plain, color: true };

test('context percentage rounds ties to even and prints the rounded number', () => {
  assert.deepEqual([69.5, 70.5, 89.5, 42.4, 0.5, 1.5].map(roundHalfEven), [70, 70, 90, 42, 0, 2]);
  const line = (pct: number) => renderLine1({ model: 'M', contextPct: pct, currentDir: '/r' }, undefined, colored);
  assert.equal(line(69.4), `${E(1)}[M]${R} r · ${E(32)}69% ctx${R}`);
  assert.equal(line(69.5), `${E(1)}[M]${R} r · ${E(33)}70% ctx${R}`);
  assert.equal(line(70.5), `${E(1)}[M]${R} r · ${E(33)}70% ctx${R}`);
  assert.equal(line(89.5), `${E(1)}[M]${R} r · ${E(31)}90% ctx${R}`);
  assert.equal(line(0), `${E(1)}[M]${R} r · ${E(32)}0% ctx${R}`, '0 is a value, not absent');
});

test('rate limits show in yellow only from a rounded 70', () => {
  const line = renderLine1({ model: 'M', currentDir: '/r', fiveHourPct: 69.4, sevenDayPct: 69.5 }, undefined, colored);
  assert.equal(line, `${E(1)}[M]${R} r · ${E(33)}7d 70%${R}`);
  assert.equal(renderLine1({ model: 'M', currentDir: '/r', fiveHourPct: 95 }, undefined, plain), '[M] r · 5h 95%');
});

test('duration is truncated to s, m or h+m', () => {
  assert.deepEqual([0, 999, 59_999, 60_000, 3_599_999, 3_600_000, 3_720_000, -5].map(formatDuration), [
    '0s',
    '0s',
    '59s',
    '1m',
    '59m',
    '1h0m',
    '1h2m',
    '0s',
  ]);
});

test('line 1 segments in spec order, cost only when enabled', () => {
  const input = {
    model: 'Opus 4.7',
    sessionName: 'fix',
    currentDir: '/home/u/repo',
    worktree: 'feat',
    contextPct: 42,
    durationMs: 720_000,
    costUsd: 1.234,
    fiveHourPct: 80,
    sevenDayPct: 10,
  };
  const git = { branch: 'main', staged: 2, modified: 3 };
  assert.equal(
    renderLine1(input, git, plain),
    '[Opus 4.7 · fix] repo · wt feat · ⎇ main · +2 · ~3 · 42% ctx · 5h 80% · 12m',
  );
  assert.equal(
    renderLine1(input, git, { ...plain, showCost: true }),
    '[Opus 4.7 · fix] repo · wt feat · ⎇ main · +2 · ~3 · 42% ctx · 5h 80% · 12m · $1.23',
  );
  assert.equal(
    renderLine1({ model: 'M', currentDir: '/r' }, git, colored),
    `${E(1)}[M]${R} r · ${E(36)}⎇${R} main · ${E(32)}+2${R} · ${E(33)}~3${R}`,
  );
  assert.equal(
    renderLine1({ model: 'M', currentDir: '/r', worktree: 'w' }, undefined, colored),
    `${E(1)}[M]${R} r · ${E(2)}wt${R} w`,
  );
});

test('zero counts, an empty branch and absent fields are left out', () => {
  assert.equal(renderLine1({ model: 'M', currentDir: '/r' }, { branch: '', staged: 0, modified: 0 }, plain), '[M] r');
  assert.equal(renderLine1({ model: 'M' }, undefined, plain), '[M] fallback', 'no current_dir: the working directory');
});

test('payload strings cannot inject rows or escapes', () => {
  const line = renderLine1(
    { model: 'A\nB\x1b[31m', currentDir: '/r/x\ny' },
    { branch: 'b\r', staged: 0, modified: 0 },
    plain,
  );
  assert.equal(line, '[AB[31m] xy · ⎇ b');
  assert.ok(!line.includes('\n'));
});

test('status JSON: odd and missing fields', () => {
  assert.deepEqual(parseStatusInput('not json'), { model: 'Claude' });
  assert.deepEqual(parseStatusInput(''), { model: 'Claude' });
  assert.deepEqual(parseStatusInput('[1,2]'), { model: 'Claude' });
  assert.deepEqual(parseStatusInput('null'), { model: 'Claude' });
  assert.deepEqual(
    parseStatusInput(
      JSON.stringify({ model: 'x', workspace: [], cost: null, context_window: { used_percentage: null } }),
    ),
    { model: 'Claude' },
  );
  assert.deepEqual(
    parseStatusInput(
      JSON.stringify({
        model: { display_name: '' },
        session_name: '',
        session_id: 'abc',
        cwd: '/c',
        context_window: { used_percentage: '71.5' },
        cost: { total_cost_usd: 0, total_duration_ms: 'soon' },
        rate_limits: { five_hour: { used_percentage: 12 }, seven_day: {} },
      }),
    ),
    { model: 'Claude', sessionId: 'abc', currentDir: '/c', contextPct: 71.5, costUsd: 0, fiveHourPct: 12 },
  );
  const full = parseStatusInput(
    JSON.stringify({
      model: { display_name: 'Opus' },
      workspace: { current_dir: '/a', project_dir: '/p', git_worktree: 'wt' },
      cwd: '/ignored',
    }),
  );
  assert.deepEqual(full, { model: 'Opus', currentDir: '/a', projectDir: '/p', worktree: 'wt' });
});

test('line 2 renders the Eneo original example with the ▓▒░ bar', () => {
  const doc = {
    slug: 'demo',
    phase: 2,
    phase_total: 3,
    wave: 2,
    wave_total: 3,
    wave_status: { 1: 'done', 2: 'in_progress' },
    tdd_phase: 'GREEN',
    active_agents: ['tdd-impl-writer', 'sveltekit-specialist'],
    status: 'in_progress',
    next_hint: '/eneo-verify',
  };
  assert.equal(
    renderTaskLine(doc, false),
    'demo · p2/3 · w2/3 [▓▒░] · GREEN · ↻ tdd-impl-writer, sveltekit-specialist',
  );
  assert.equal(
    renderTaskLine(doc, true),
    `${E(1)}demo${R} · ${E(2)}p${R}2/3 · ${E(2)}w${R}2/3 [▓▒░] · ${E(32)}GREEN${R} · ${E(36)}↻${R} tdd-impl-writer, sveltekit-specialist`,
  );
});

test('line 2: hint, ellipsis, phases and empty fields never shift each other', () => {
  const base = { slug: 's', status: 'in_progress' };
  assert.equal(
    renderTaskLine(
      {
        ...base,
        phase: null,
        phase_total: 2,
        wave: 1,
        wave_total: 2,
        tdd_phase: 'RED',
        active_agents: [],
        next_hint: '/next',
      },
      false,
    ),
    's · w1/2 [░░] · RED · → /next',
  );
  assert.equal(
    renderTaskLine({ ...base, phase: 0, phase_total: 0, tdd_phase: 'FREE', next_hint: '' }, false),
    's · p0/0 · …',
  );
  assert.equal(
    renderTaskLine({ ...base, status: 'done', tdd_phase: 'REFACTOR' }, true),
    `${E(1)}s${R} · ${E(33)}REFACTOR${R}`,
  );
  assert.equal(
    renderTaskLine({ slug: 's', tdd_phase: 'ODD', next_hint: 'go' }, true),
    `${E(1)}s${R} · ODD · ${E(2)}→${R} go`,
  );
  assert.equal(
    renderTaskLine({ slug: 's', wave: 1, wave_total: 100 }, false),
    `s · w1/100 [${'░'.repeat(64)}]`,
    'bar capped at 64',
  );
  assert.equal(
    renderTaskLine({ slug: 's', wave: 1, wave_total: '3' }, false),
    's · w1/3 []',
    'bar empty for a non-integer total',
  );
  assert.equal(renderTaskLine({ slug: 'a\nb', next_hint: 'x\ny' }, false), 'ab · → xy');
  assert.equal(renderTaskLine({ slug: '' }, false), undefined);
  assert.equal(renderTaskLine([], false), undefined);
});
