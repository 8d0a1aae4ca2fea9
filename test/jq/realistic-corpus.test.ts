import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { compileJq, formatJqCompact, JqError } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';
import type { CorpusEntry } from './fixtures/realistic-corpus.js';
import { AGENT_WRITTEN, FROM_SEEDS, PIPELINE, TASK } from './fixtures/realistic-corpus.js';
import type { Case } from './jq-binary.js';
import { jqArgs, NOW, requireJqBinary, runJqAll } from './jq-binary.js';

// Regex builtins run on an engine loaded on demand (Doc.get/update await this themselves).
await compileJq('test("")').ready();

const jqWasm = createRequire(import.meta.url)('jq-wasm') as {
  raw(input: string, filter: string, flags?: string[]): Promise<string>;
};

function toCase(e: CorpusEntry): Case {
  const args = Object.entries(e.args ?? {}).map(([name, value]) =>
    name.startsWith('json:') ? { name: name.slice(5), value, json: true } : { name, value },
  );
  return { expr: e.expr, input: JSON.stringify(e.on === 'pipeline' ? PIPELINE : TASK), args };
}

type Answer = { out: string } | { error: string } | { refused: string };

function baton(c: Case): Answer {
  try {
    const vars: Record<string, Json> = {};
    for (const a of c.args ?? []) vars[a.name] = a.json ? (JSON.parse(a.value) as Json) : a.value;
    const out = compileJq(c.expr, Object.keys(vars)).run(JSON.parse(c.input) as Json, vars, {
      now: new Date(NOW * 1000),
    });
    return { out: out.map((v) => formatJqCompact(v) + '\n').join('') };
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    return e.code === 'jq_unsupported' ? { refused: e.message } : { error: e.message };
  }
}

/**
 * The reference answer: jq 1.6 (the Debian binary); for builtins it lacks, jq 1.7.1 (jq-wasm);
 * for those neither has (trim, toarray), the output the jq 1.8 manual defines, kept in the fixture.
 */
async function reference(
  e: CorpusEntry,
  c: Case,
  jq16: { ok: boolean; stdout: string; stderr: string },
): Promise<{ out?: string; error?: true; via: string }> {
  if (jq16.ok) return { out: jq16.stdout, via: 'jq 1.6' };
  if (!/is not defined/.test(jq16.stderr)) return { error: true, via: 'jq 1.6' };
  const exitCode = process.exitCode;
  try {
    return {
      out: await jqWasm.raw(c.input, jqArgs(c).slice(-1)[0] as string, jqArgs(c).slice(0, -1)),
      via: 'jq 1.7.1',
    };
  } catch (err) {
    if (!/is not defined/.test(String(err))) return { error: true, via: 'jq 1.7.1' };
  } finally {
    process.exitCode = exitCode; // the emscripten build sets jq's exit status on the host process
  }
  assert.ok(e.expect !== undefined, `no reference answer for ${e.expr}`);
  return { out: `${e.expect}\n`, via: 'jq 1.8 manual' };
}

test('realistic corpus: the share of seed and agent-written expressions baton answers exactly as jq', async (t) => {
  requireJqBinary();
  const entries = [...FROM_SEEDS, ...AGENT_WRITTEN];
  assert.equal(AGENT_WRITTEN.length, 100);
  const cases = entries.map(toCase);
  const jq16 = await runJqAll(cases);
  let identical = 0;
  const refused: string[] = [];
  const mismatches: string[] = [];
  const via: Record<string, number> = {};
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as Case;
    const b = baton(c);
    if ('refused' in b) {
      refused.push(`${c.expr}: ${b.refused}`);
      continue;
    }
    const ref = await reference(entries[i] as CorpusEntry, c, jq16[i]!);
    via[ref.via] = (via[ref.via] ?? 0) + 1;
    const same = 'error' in b ? ref.error === true : ref.out !== undefined && ref.out.trim() === b.out.trim();
    if (same) identical++;
    else mismatches.push(`${c.expr}: reference (${ref.via}) ${JSON.stringify(ref)} vs baton ${JSON.stringify(b)}`);
  }
  const share = (identical / entries.length) * 100;
  t.diagnostic(
    `realistic corpus: ${entries.length} expressions (${FROM_SEEDS.length} from the seeds and spec, ${AGENT_WRITTEN.length} agent-written); ` +
      `${identical} answered identically (${share.toFixed(1)}%), ${refused.length} refused, ${mismatches.length} different`,
  );
  t.diagnostic(
    `reference answers: ${Object.entries(via)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const r of refused) t.diagnostic(`refused: ${r}`);
  assert.deepEqual(mismatches, [], 'where baton answers, it answers as jq does');
  assert.ok(identical >= entries.length - 2, `identical answers: ${identical} of ${entries.length}`);
});
