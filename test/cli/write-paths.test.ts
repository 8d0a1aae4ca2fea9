/**
 * A rule of a document holds whichever command writes it (docs/guarantees.md): the schema's x-baton
 * rules, the project config's classification and the run bus's sealed phases are applied by the
 * engine for init --force, update, set, append, revert and the library alike, and a refused write
 * leaves the document, its history and its mirrors as they were.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton, cleanEnv, eneoTaskProject, ROOT } from '../helpers/cli.js';
import { OWNED_SCHEMA, tempTree, treeFiles } from '../helpers/fixtures.js';

const TASK = '.claude/state/current-task.json';
const RUN = '.ai_log/session-r1.json';

/** Runs `body` (an async function of `lib`, the built library) in a separate Node process. */
function library(dir: string, body: string): { code: number; stdout: string; stderr: string } {
  const script = `import * as lib from ${JSON.stringify(join(ROOT, 'dist', 'index.mjs'))};
try { await (${body})(lib); console.log('ok'); } catch (error) { console.log(error.code ?? error.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: cleanEnv({ BATON_ROOT: dir }),
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout.trim(), stderr: r.stderr };
}

describe('rules hold whichever command writes', () => {
  it('init --force with another schema, or a revert that recreates, is governed by the replaced document: a non-creator is refused, nothing changes', () => {
    const { dir, cleanup } = tempTree({ 'owned.json': OWNED_SCHEMA });
    try {
      const env = { BATON_ROOT: dir };
      assert.equal(
        baton(['init', 'd.json', '--schema', 'owned.json', '--as', 'orchestrator', '--arg', 'phase', 'RED'], {
          cwd: dir,
          env,
        }).code,
        0,
      );
      const before = treeFiles(dir);
      for (const args of [
        ['init', 'd.json', '--force', '--schema', 'any', '--as', 'agent:x'],
        ['init', 'd.json', '--force', '--schema', 'any', '--as', 'agent:x', '--arg', 'phase', 'GREEN'],
        ['init', 'd.json', '--force', '--schema', 'owned.json', '--as', 'agent:x', '--arg', 'phase', 'GREEN'],
      ]) {
        const r = baton(args, { cwd: dir, env });
        assert.equal(r.code, 5, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr.trim().split('\n').length, 1);
      }
      assert.deepEqual(treeFiles(dir), before);
      // Still owned: agent:x can neither change the owned field nor clear the document.
      assert.equal(baton(['set', 'd.json', 'phase', 'GREEN', '--as', 'agent:x'], { cwd: dir, env }).code, 5);
      assert.equal(baton(['clear', 'd.json', '--as', 'agent:x'], { cwd: dir, env }).code, 5);
      assert.equal(
        library(
          dir,
          `async (lib) => lib.openDoc('d.json', { writer: 'agent:x' }).init({}, { force: true, schema: 'any' })`,
        ).stdout,
        'forbidden',
      );
      assert.deepEqual(treeFiles(dir), before);
      // Once the creator deleted it, reverting to an old revision creates it again: still the creator's call.
      assert.equal(baton(['clear', 'd.json', '--as', 'orchestrator'], { cwd: dir, env }).code, 0);
      assert.equal(baton(['revert', 'd.json', '--rev', '1', '--as', 'agent:x'], { cwd: dir, env }).code, 5);
      assert.equal(baton(['revert', 'd.json', '--rev', '1', '--as', 'orchestrator'], { cwd: dir, env }).code, 0);
      // The creator may replace it, with another schema too.
      assert.equal(
        baton(['init', 'd.json', '--force', '--schema', 'any', '--as', 'orchestrator'], { cwd: dir, env }).code,
        0,
      );
    } finally {
      cleanup();
    }
  });

  it('the classification of baton.config.json refuses a bad value through task, update, set and the library', () => {
    const { dir, env, cleanup } = eneoTaskProject();
    try {
      assert.equal(baton(['set', TASK, 'notes', '[]', '--json'], { cwd: dir, env }).code, 0);
      const before = treeFiles(dir);
      const refusals: [string[], number][] = [
        [['task', 'update', '--', '.lane = "sideways"'], 1],
        [['update', TASK, '.lane = "sideways"'], 3],
        [['update', TASK, '.bracket = 9'], 3],
        [['set', TASK, 'lane', 'sideways'], 3],
        [['set', TASK, 'tenancy_impact', 'everything'], 3],
      ];
      for (const [args, code] of refusals) {
        const r = baton(args, { cwd: dir, env });
        assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /classification/);
      }
      // From a subfolder, with the project found by its config rather than BATON_ROOT.
      mkdirSync(join(dir, 'src'));
      assert.equal(baton(['set', `../${TASK}`, 'lane', 'sideways'], { cwd: join(dir, 'src'), env: {} }).code, 3);
      assert.equal(
        library(dir, `async (lib) => lib.openDoc(${JSON.stringify(TASK)}).update((d) => ({ ...d, lane: 'sideways' }))`)
          .stdout,
        'invalid',
      );
      assert.equal(
        library(dir, `async (lib) => lib.openDoc(${JSON.stringify(TASK)}).set('audit_impact', 'all')`).stdout,
        'invalid',
      );
      assert.deepEqual(treeFiles(dir), before);
      // A broken config does not switch the rules off: writes to the task document are refused.
      writeFileSync(join(dir, 'baton.config.json'), '{"profile": ');
      assert.equal(baton(['set', TASK, 'lane', 'sideways'], { cwd: dir, env }).code, 2);
      writeFileSync(join(dir, 'baton.config.json'), '{"profile": "eneo"}');
      assert.deepEqual(treeFiles(dir), before);
      // A good value still lands through the plain commands.
      assert.equal(baton(['set', TASK, 'lane', 'fast'], { cwd: dir, env }).code, 0);
      assert.equal(baton(['append', TASK, 'notes', 'x'], { cwd: dir, env }).code, 0);
    } finally {
      cleanup();
    }
  });

  it("a run's phases and contract change only through run init, phase and gate: any other write exits 5", () => {
    const { dir, cleanup } = tempTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'c.yaml': 'phases:\n  - phase: 0-req\n    inputs: []\n    outputs: [prd]\n',
    });
    try {
      const env = {};
      const run = (args: string[]) => baton(args, { cwd: dir, env });
      assert.equal(run(['run', 'init', 'r1', '--contract', 'c.yaml']).code, 0);
      assert.equal(run(['phase', 'start', 'r1', '0-req', '--agent', 'a']).code, 0);
      const before = treeFiles(dir);
      const done = '{"0-req": {"status": "done", "outputs": {"prd": "x"}, "evidence": [], "work_items": []}}';
      const refusals = [
        ['run', 'set', 'r1', 'phases', done, '--json'],
        ['run', 'set', 'r1', 'contract', '{"phases": []}', '--json'],
        ['run', '--compat', 'set', 'r1', 'phases', '{}'],
        ['set', RUN, 'phases.0-req.status', 'done'],
        ['set', RUN, 'contract.phases', '[]', '--json'],
        ['update', RUN, '.phases["0-req"].status = "done"'],
        ['update', RUN, 'del(.contract)'],
        ['revert', RUN, '--rev', '1'],
        ['init', RUN, '--force', '--schema', 'any', '--arg', 'session', 'r1'],
        ['init', RUN, '--force', '--schema', 'pipeline-run', '--arg', 'session', 'r1', '--argjson', 'phases', '{}'],
      ];
      for (const args of refusals) {
        const r = run(args);
        assert.equal(r.code, 5, `${args.join(' ')}: ${r.stderr}`);
      }
      const shim = (args: string[]) =>
        spawnSync(join(ROOT, 'compat/pipeline-state/pipeline-state.sh'), args, {
          cwd: dir,
          env: cleanEnv({ BATON_BIN: `${process.execPath} ${join(ROOT, 'bin/baton.js')}` }),
          encoding: 'utf8',
        });
      assert.equal(shim(['set', 'r1', 'phases', '{}']).status, 5);
      assert.equal(
        library(dir, `async (lib) => lib.openDoc(${JSON.stringify(RUN)}).update('.phases["0-req"].status = "done"')`)
          .stdout,
        'forbidden',
      );
      assert.equal(
        library(
          dir,
          `async (lib) => lib.openDoc(${JSON.stringify(RUN)}).update((d) => ({ ...d, contract: { phases: [] } }))`,
        ).stdout,
        'forbidden',
      );
      assert.deepEqual(treeFiles(dir), before);
      // Everything else keeps working: the drop-in set of other fields, the phase commands, the gate.
      assert.equal(shim(['set', 'r1', 'user_request', 'hello']).status, 0);
      assert.equal(run(['run', 'set', 'r1', 'pr', '5', '--json']).code, 0);
      assert.equal(run(['set', RUN, 'notes', 'x']).code, 0);
      assert.equal(run(['phase', 'done', 'r1', '0-req', '--output', 'prd=x']).code, 0);
      assert.equal(run(['gate', 'r1', '0-req']).code, 1, 'no evidence: the gate fails, and records it');
      const doc = JSON.parse(readFileSync(join(dir, RUN), 'utf8')) as {
        user_request: string;
        pr: number;
        phases: Record<string, { status: string; gate?: unknown }>;
      };
      assert.deepEqual(
        [doc.user_request, doc.pr, doc.phases['0-req']?.status, doc.phases['0-req']?.gate !== undefined],
        ['hello', 5, 'done', true],
      );
      assert.equal(run(['run', 'init', 'r1']).code, 0, 'run init replaces the run');
      // No detour: a run cleared and re-created by a plain init under a laxer schema, its phase
      // written as done, is not a run the phase commands or the gate accept.
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs/prd.md'), '# prd\n');
      assert.equal(run(['clear', RUN]).code, 0);
      const forged =
        '{"0-req": {"status": "done", "outputs": {"prd": "docs/prd.md"}, "evidence": ["docs/prd.md"], "work_items": []}}';
      assert.equal(
        run([
          'init',
          RUN,
          '--schema',
          'any',
          '--arg',
          'session',
          'r1',
          '--argjson',
          'phases',
          forged,
          '--argjson',
          'contract',
          '{"phases": []}',
        ]).code,
        0,
      );
      assert.equal(run(['gate', 'r1', '0-req']).code, 5);
      assert.equal(run(['phase', 'start', 'r1', '1-next', '--agent', 'a']).code, 5);
    } finally {
      cleanup();
    }
  });

  it('a mirror that cannot be written refuses the write before anything is committed', () => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    try {
      const env = { BATON_ROOT: dir };
      assert.equal(baton(['task', 'init', '--', 'demo', 'deep', '4', 'none', 'appends'], { cwd: dir, env }).code, 0);
      rmSync(join(dir, '.claude/state/phase'));
      mkdirSync(join(dir, '.claude/state/phase'));
      const before = treeFiles(dir);
      const r = baton(['update', TASK, '.tdd_phase = "GREEN"'], { cwd: dir, env });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /mirror file .*phase.* nothing was written/);
      assert.equal(baton(['task', 'phase-set', 'GREEN'], { cwd: dir, env }).code, 1);
      assert.deepEqual(treeFiles(dir), before);
      assert.equal(baton(['history', TASK], { cwd: dir, env }).stdout.trim().split('\n').length, 1);
    } finally {
      cleanup();
    }
  });
});
