import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batonInProcess as baton, CONTRACT_YAML, finishRequirements, project, snapshot, state } from './helpers.js';
import { messageLines } from '../helpers/cli.js';

describe('baton phase: entries, state machine, contracts, inputs', () => {
  it('start then done records agent, status, outputs, evidence, work items and times', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'r'], p.dir);
    const started = await baton(['phase', 'start', 'r', '0-requirements', '--agent', 'pm'], p.dir);
    assert.deepEqual([started.code, started.stdout, started.stderr], [0, '', '']);
    assert.equal(state(p.dir, 'r').phases['0-requirements'].status, 'in_progress');
    const done = await baton(
      [
        'phase',
        'done',
        'r',
        '0-requirements',
        '--output',
        'prd_document=docs/prd/x.md',
        '--output=count=2',
        '--evidence',
        '.ai_log/a.md',
        '--evidence',
        `${p.dir}/.ai_log/b.md`,
        '--work-item',
        'docs/prd/x.md',
      ],
      p.dir,
    );
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /warning: \.ai_log\/a\.md does not exist yet/);
    const entry = state(p.dir, 'r').phases['0-requirements'];
    assert.deepEqual(Object.keys(entry), [
      'agent',
      'status',
      'outputs',
      'evidence',
      'work_items',
      'started_at',
      'finished_at',
    ]);
    assert.deepEqual(
      [entry.agent, entry.status, entry.outputs, entry.evidence, entry.work_items],
      [
        'pm',
        'done',
        { prd_document: 'docs/prd/x.md', count: '2' },
        ['.ai_log/a.md', '.ai_log/b.md'],
        ['docs/prd/x.md'],
      ],
    );
    assert.match(entry.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(entry.finished_at >= entry.started_at);
    assert.equal(state(p.dir, 'r').prd_document, undefined, 'outputs stay in the phase without --promote');
  });

  it('--json types outputs and --promote also sets them at the top level', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'r'], p.dir);
    await baton(['phase', 'start', 'r', '5-verification', '--agent', 'architect'], p.dir);
    const done = await baton(
      [
        'phase',
        'done',
        'r',
        '5-verification',
        '--output',
        'gate="pass"',
        '--output',
        'checks=12',
        '--json',
        '--promote',
      ],
      p.dir,
    );
    assert.equal(done.code, 0, done.stderr);
    const doc = state(p.dir, 'r');
    assert.deepEqual(doc.phases['5-verification'].outputs, { gate: 'pass', checks: 12 });
    assert.deepEqual([doc.gate, doc.checks], ['pass', 12]);
    assert.equal((await baton(['run', 'get', 'r', 'phases.5-verification.outputs.gate'], p.dir)).stdout, 'pass\n');
    assert.equal((await baton(['phase', 'get', 'r', '5-verification', 'outputs.checks'], p.dir)).stdout, '12\n');
    assert.equal(JSON.parse((await baton(['phase', 'get', 'r', '5-verification'], p.dir)).stdout).agent, 'architect');
  });

  it('--also FIELD mirrors the evidence into a top-level list, as `append S phase-N-evidence` did', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'r'], p.dir);
    await baton(['run', 'append', 'r', 'phase-2-evidence', '.ai_log/old.md'], p.dir);
    await baton(['run', 'set', 'r', 'flat', 'text'], p.dir);
    await baton(['phase', 'start', 'r', '2-build', '--agent', 'backend'], p.dir);
    const before = snapshot(p.dir);
    for (const [also, code, message] of [
      ['flat', 1, /field flat is not a list/],
      ['phases', 2, /--also/],
      ['bad key', 2, /--also/],
    ] as const) {
      const r = await baton(['phase', 'done', 'r', '2-build', '--evidence', '.ai_log/a.log', '--also', also], p.dir);
      assert.deepEqual([r.code, messageLines(r.stderr).length], [code, 1], r.stderr);
      assert.match(r.stderr, message);
    }
    assert.equal(
      (await baton(['phase', 'done', 'r', '2-build', '--also', 'phase-2-evidence'], p.dir)).code,
      2,
      '--also without --evidence',
    );
    assert.deepEqual(snapshot(p.dir), before);
    const done = await baton(
      [
        'phase',
        'done',
        'r',
        '2-build',
        '--evidence',
        '.ai_log/a.log',
        '--evidence=.ai_log/b.log',
        '--also',
        'phase-2-evidence',
      ],
      p.dir,
    );
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(state(p.dir, 'r')['phase-2-evidence'], ['.ai_log/old.md', '.ai_log/a.log', '.ai_log/b.log']);
    assert.deepEqual(state(p.dir, 'r').phases['2-build'].evidence, ['.ai_log/a.log', '.ai_log/b.log']);
    assert.equal(
      (await baton(['run', 'get', 'r', 'phase-2-evidence'], p.dir)).stdout,
      '[\n  ".ai_log/old.md",\n  ".ai_log/a.log",\n  ".ai_log/b.log"\n]\n',
    );
  });

  it('only todo -> in_progress -> done is allowed; --rerun reopens a done phase', async (t) => {
    const p = project();
    t.after(p.cleanup);
    await baton(['run', 'init', 'r'], p.dir);
    const early = await baton(['phase', 'done', 'r', '1-design'], p.dir);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /^baton phase: phase 1-design is todo and cannot move to done .*start it first/);
    await baton(['phase', 'start', 'r', '1-design', '--agent', 'd'], p.dir);
    const twice = await baton(['phase', 'start', 'r', '1-design', '--agent', 'd'], p.dir);
    assert.deepEqual([twice.code, /is in_progress and cannot move to in_progress/.test(twice.stderr)], [1, true]);
    await baton(['phase', 'done', 'r', '1-design', '--evidence', '.ai_log/x.md'], p.dir);
    const before = snapshot(p.dir);
    for (const args of [
      ['done', 'r', '1-design'],
      ['start', 'r', '1-design', '--agent', 'd'],
    ]) {
      assert.equal((await baton(['phase', ...args], p.dir)).code, 1, args.join(' '));
    }
    assert.deepEqual(snapshot(p.dir), before, 'refused transitions write nothing');
    assert.equal((await baton(['phase', 'start', 'r', '1-design', '--agent', 'd2', '--rerun'], p.dir)).code, 0);
    const entry = state(p.dir, 'r').phases['1-design'];
    assert.deepEqual(
      [entry.status, entry.agent, entry.finished_at, entry.evidence],
      ['in_progress', 'd2', undefined, ['.ai_log/x.md']],
    );
  });

  it('bad phase keys, statuses, outputs and paths are usage errors (exit 2) that write nothing', async (t) => {
    const p = project();
    t.after(p.cleanup);
    // Symlinks out of the project are refused like `..`: a file and a folder (the file not written yet).
    const outside = mkdtempSync(join(tmpdir(), 'baton-outside-'));
    t.after(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, 'secret.log'), 'x');
    await baton(['run', 'init', 'r'], p.dir);
    symlinkSync(join(outside, 'secret.log'), join(p.dir, '.ai_log', 'out-link.log'));
    symlinkSync(outside, join(p.dir, '.ai_log', 'out-dir'));
    await baton(['phase', 'start', 'r', '0-a', '--agent', 'x'], p.dir);
    const before = snapshot(p.dir);
    const cases = [
      ['start', 'r', 'Design', '--agent', 'x'],
      ['start', 'r', '0-../x', '--agent', 'x'],
      ['start', 'r', '1-b'],
      ['finish', 'r', '0-a'],
      ['done', 'r', '0-a', '--output', 'novalue'],
      ['done', 'r', '0-a', '--output', '=v'],
      ['done', 'r', '0-a', '--output', 'k={bad', '--json'],
      ['done', 'r', '0-a', '--output', 'session=x', '--promote'],
      ['done', 'r', '0-a', '--evidence', '../outside.log'],
      ['done', 'r', '0-a', '--evidence', '/etc/passwd'],
      ['done', 'r', '0-a', '--evidence', '.ai_log/out-link.log'],
      ['done', 'r', '0-a', '--work-item', '.ai_log/out-dir/new.md'],
      ['done', 'r', '0-a', '--work-item', 'docs/a\u0007b.md'],
      ['done', 'r', '0-a', '--evidence'],
      ['get', 'r'],
    ];
    for (const args of cases) {
      const r = await baton(['phase', ...args], p.dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(messageLines(r.stderr).length, 1, r.stderr);
    }
    assert.deepEqual(snapshot(p.dir), before);
    assert.equal((await baton(['phase', 'get', 'r', '9-none'], p.dir)).code, 1);
  });

  it('a YAML contract creates todo phases in order and `phase inputs` resolves keys and evidence paths', async (t) => {
    const p = project({ 'workflow.yaml': CONTRACT_YAML });
    t.after(p.cleanup);
    assert.equal((await baton(['run', 'init', 'r', '--contract', 'workflow.yaml'], p.dir)).code, 0);
    const doc = state(p.dir, 'r');
    assert.deepEqual(Object.keys(doc.phases), ['0-requirements', '1-design', '2-build']);
    assert.deepEqual(doc.phases['1-design'], {
      agent: 'designer',
      status: 'todo',
      outputs: {},
      evidence: [],
      work_items: [],
    });
    assert.deepEqual(doc.contract.phases[2], {
      phase: '2-build',
      agent: 'backend',
      inputs: ['prd_document', 'design_spec'],
      outputs: ['backend_code'],
    });
    await baton(['run', 'set', 'r', 'user_request', 'Gate the member blog'], p.dir);
    const first = await baton(['phase', 'inputs', 'r', '0-requirements'], p.dir);
    assert.deepEqual(
      [first.code, first.stdout],
      [0, 'inputs of 0-requirements (agent pm):\n  user_request = Gate the member blog  (run variable)\n'],
    );
    await finishRequirements(p.dir);
    const build = await baton(['phase', 'inputs', '.ai_log/session-r.json', '2-build'], p.dir);
    assert.equal(build.code, 1, 'an input is missing');
    assert.equal(
      build.stdout,
      [
        'inputs of 2-build (agent backend):',
        '  prd_document = docs/prd/x.md  (from 0-requirements)',
        '  design_spec  MISSING (1-design is todo)',
        'evidence:',
        '  0-requirements: .ai_log/phase-0-pm-prd.md',
        '',
      ].join('\n'),
    );
    const none = await baton(['phase', 'inputs', 'r', '7-other'], p.dir);
    // A phase outside the contract is a usage error, as for phase start and done (exit 2).
    assert.deepEqual([none.code, /not in the contract/.test(none.stderr)], [2, true]);
  });

  it("a phase the run's workflow does not have is refused (exit 2, naming the workflow's phases), nothing written", async (t) => {
    const p = project({ 'workflow.yaml': CONTRACT_YAML });
    t.after(p.cleanup);
    assert.equal((await baton(['run', 'init', 'r', '--contract', 'workflow.yaml'], p.dir)).code, 0);
    const before = snapshot(p.dir);
    for (const args of [
      ['phase', 'start', 'r', '3-deploy', '--agent', 'ops'],
      ['phase', 'done', 'r', '3-deploy', '--output', 'url=x'],
    ]) {
      const refused = await baton(args, p.dir);
      assert.equal(refused.code, 2, refused.stderr);
      assert.deepEqual(messageLines(refused.stderr), [
        "baton phase: phase 3-deploy is not in this run's workflow (workflow.yaml), whose phases are 0-requirements, 1-design, 2-build; use one of them",
      ]);
    }
    assert.deepEqual(snapshot(p.dir), before);
    assert.equal((await baton(['phase', 'start', 'r', '1-design', '--agent', 'designer'], p.dir)).code, 0);
  });

  it('a JSON contract in map form works; bad contract files exit 2 and write nothing', async (t) => {
    const p = project({
      'ok.json': JSON.stringify({ phases: { '0-plan': { agent: 'a', output: 'plan' }, '1-do': { input: ['plan'] } } }),
      'broken.json': '{"phases": [',
      'broken.yaml': 'phases:\n  - phase: 0-a\n   bad indent: [\n',
      'nophases.yaml': 'steps: []\n',
      'badkey.yaml': 'phases:\n  - phase: Plan\n    outputs: [ok]\n  - phase: 1-x\n    outputs: ["has space"]\n',
      'dup.yaml': 'phases:\n  - phase: 0-a\n  - phase: 0-a\n',
    });
    t.after(p.cleanup);
    assert.equal((await baton(['run', 'init', 'j', '--contract', 'ok.json'], p.dir)).code, 0);
    assert.deepEqual(state(p.dir, 'j').contract.phases, [
      { phase: '0-plan', agent: 'a', inputs: [], outputs: ['plan'] },
      { phase: '1-do', inputs: ['plan'], outputs: [] },
    ]);
    await baton(['run', 'init', 'keep'], p.dir);
    const before = snapshot(p.dir);
    for (const [file, why] of [
      ['broken.json', /not valid JSON/],
      ['broken.yaml', /not valid YAML/],
      ['nophases.yaml', /has no phases/],
      ['badkey.yaml', /phases\[0\] phase "Plan".*phases\[1\]\.outputs/],
      ['dup.yaml', /listed twice/],
      ['missing.yaml', /cannot be read/],
    ] as const) {
      const r = await baton(['run', 'init', 'keep', '--contract', file], p.dir);
      assert.equal(r.code, 2, file);
      assert.match(r.stderr, why);
      assert.equal(messageLines(r.stderr).length, 1);
    }
    assert.deepEqual(snapshot(p.dir), before);
  });
});
