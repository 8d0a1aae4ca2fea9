import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJq, formatJqCompact, JqError } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';
import { BUILTIN_CASES } from './corpus-builtins.js';
import { REGEX_CASES } from './corpus-regex.js';
import { HANDPICKED, MUST_WORK } from './corpus.js';
import { generateCases } from './generate.js';
import type { Case, JqResult } from './jq-binary.js';
import { NOW, requireJqBinary, runJqAll } from './jq-binary.js';
import { TIME_CASES } from './corpus-time.js';

type Outcome = 'match' | 'unsupported' | 'both-error' | 'mismatch';

async function runBaton(c: Case): Promise<{ out?: string; err?: JqError }> {
  try {
    const names = (c.args ?? []).map((a) => a.name);
    const vars: Record<string, Json> = {};
    for (const a of c.args ?? []) vars[a.name] = a.json ? (JSON.parse(a.value) as Json) : a.value;
    const prog = compileJq(c.expr, names);
    await prog.ready();
    const out = prog.run(JSON.parse(c.input) as Json, vars, { now: new Date(NOW * 1000) });
    return { out: out.map((v) => formatJqCompact(v) + '\n').join('') };
  } catch (e) {
    if (e instanceof JqError) return { err: e };
    throw new Error(`baton threw a non-JqError for ${c.expr}: ${String(e)}`, { cause: e });
  }
}

async function classify(c: Case, jq: JqResult): Promise<{ outcome: Outcome; detail: string }> {
  const b = await runBaton(c);
  if (b.err?.code === 'jq_unsupported') return { outcome: 'unsupported', detail: b.err.message };
  if (!jq.ok) {
    if (b.err) return { outcome: 'both-error', detail: '' };
    return {
      outcome: 'mismatch',
      detail: `jq failed (${jq.stderr.trim()}) but baton printed ${JSON.stringify(b.out)}`,
    };
  }
  if (b.err)
    return {
      outcome: 'mismatch',
      detail: `jq printed ${JSON.stringify(jq.stdout)} but baton threw ${b.err.code}: ${b.err.message}`,
    };
  if (b.out !== jq.stdout)
    return { outcome: 'mismatch', detail: `jq ${JSON.stringify(jq.stdout)} vs baton ${JSON.stringify(b.out)}` };
  return { outcome: 'match', detail: '' };
}

async function runCorpus(cases: Case[]) {
  // The engine only ever sees parsed JSON; give jq the same (JS-ordered) text.
  const canonical = cases.map((c) => ({ ...c, input: JSON.stringify(JSON.parse(c.input)) }));
  const jq = await runJqAll(canonical);
  const results = await Promise.all(canonical.map(async (c, i) => ({ c, ...(await classify(c, jq[i] as JqResult)) })));
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return { results, count };
}

test('differential: jq engine agrees with the jq 1.6 binary', async (t) => {
  const version = requireJqBinary();
  assert.equal(version, 'jq-1.6', 'the reference is jq 1.6');
  const hand = [...HANDPICKED, ...BUILTIN_CASES];
  const generated = generateCases(500);
  const h = await runCorpus(hand);
  const g = await runCorpus(generated);

  const mismatches = [...h.results, ...g.results].filter((r) => r.outcome === 'mismatch');
  const answered = h.count('match') + h.count('both-error');
  const share = answered / hand.length;
  t.diagnostic(
    `hand-picked: ${hand.length} cases, ${h.count('match')} exact, ${h.count('both-error')} both error, ${h.count('unsupported')} refused; supported share ${(share * 100).toFixed(1)}%`,
  );
  t.diagnostic(
    `generated: ${generated.length} cases, ${g.count('match')} exact, ${g.count('both-error')} both error, ${g.count('unsupported')} refused`,
  );
  if (process.env.JQ_DIFF_VERBOSE) {
    for (const r of h.results.filter((x) => x.outcome === 'unsupported'))
      t.diagnostic(`refused: ${r.c.expr} -> ${r.detail}`);
  }
  assert.deepEqual(
    mismatches.map((m) => `${m.c.expr} on ${m.c.input.slice(0, 60)}: ${m.detail}`),
    [],
    'no silent differences from jq 1.6',
  );
  assert.ok(share >= 0.95, `supported share of the hand-picked corpus is ${share}`);
  assert.ok(g.count('match') + g.count('both-error') >= generated.length * 0.8, 'most generated cases are answered');

  const must = await runCorpus(MUST_WORK);
  assert.equal(must.count('match'), MUST_WORK.length, 'every task-state caller is answered exactly');
});

test('differential: date builtins and now agree with jq 1.6 (glibc, UTC)', async (t) => {
  requireJqBinary();
  const r = await runCorpus(TIME_CASES);
  const mismatches = r.results.filter((x) => x.outcome === 'mismatch');
  t.diagnostic(
    `dates: ${TIME_CASES.length} cases, ${r.count('match')} exact, ${r.count('both-error')} both error, ${r.count('unsupported')} refused`,
  );
  for (const x of r.results.filter((y) => y.outcome === 'unsupported'))
    t.diagnostic(`refused: ${x.c.expr} -> ${x.detail}`);
  assert.deepEqual(
    mismatches.map((m) => `${m.c.expr} on ${m.c.input.slice(0, 80)}: ${m.detail}`),
    [],
    'no silent differences from jq 1.6',
  );
  assert.ok(r.count('unsupported') <= 12, 'the date builtins answer nearly every case');
});

test('differential: regex builtins on the linear-time engine agree with jq 1.6 (Oniguruma)', async (t) => {
  requireJqBinary();
  const r = await runCorpus(REGEX_CASES);
  t.diagnostic(
    `regex: ${REGEX_CASES.length} cases, ${r.count('match')} exact, ${r.count('both-error')} both error, ${r.count('unsupported')} refused`,
  );
  const mismatches = r.results.filter((x) => x.outcome === 'mismatch');
  assert.deepEqual(
    mismatches.map((m) => `${m.c.expr} on ${m.c.input}: ${m.detail}`),
    [],
    'no silent differences from jq 1.6',
  );
  // The rest are refusals by design (backreferences, lookaround, classes on non-ASCII text).
  assert.ok(r.count('match') >= REGEX_CASES.length * 0.7, `most regex cases are answered (${r.count('match')})`);
});
