import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batonInProcess as baton, CONTRACT_YAML, finishRequirements, project, snapshot, state } from './helpers.js';

describe('baton gate and baton run show', () => {
  it('passes only when the phase is done, contract outputs are present and every path is a real file', async (t) => {
    const p = project({
      'workflow.yaml': CONTRACT_YAML,
      'docs/prd/x.md': '# PRD\n',
      '.ai_log/phase-0-pm-prd.md': 'log\n',
    });
    t.after(p.cleanup);
    await baton(['run', 'init', 'r', '--contract', 'workflow.yaml'], p.dir);
    const notDone = await baton(['gate', 'r', '0-requirements'], p.dir);
    assert.equal(notDone.code, 1);
    assert.match(notDone.stdout, /MISSING status +0-requirements +todo/);
    await finishRequirements(p.dir, ['--work-item', 'docs/prd/x.md']);
    const pass = await baton(['gate', 'r', '0-requirements'], p.dir);
    assert.equal(pass.code, 0, pass.stdout);
    assert.equal(
      pass.stdout,
      [
        '  ok      status    0-requirements             done',
        '  ok      output    prd_document               docs/prd/x.md (exists)',
        '  ok      evidence  .ai_log/phase-0-pm-prd.md  exists',
        '  ok      work_item docs/prd/x.md              exists',
        'gate 0-requirements: pass',
        '',
      ].join('\n'),
    );
    assert.equal(state(p.dir, 'r').phases['0-requirements'].gate.result, 'pass');
  });

  it('fails on a missing contract output, a missing or empty evidence file, and no evidence at all', async (t) => {
    const p = project({ 'workflow.yaml': CONTRACT_YAML, '.ai_log/empty.log': '', '.ai_log/real.log': 'x' });
    t.after(p.cleanup);
    await baton(['run', 'init', 'r', '--contract', 'workflow.yaml'], p.dir);
    await baton(['phase', 'start', 'r', '1-design', '--agent', 'designer'], p.dir);
    await baton(
      [
        'phase',
        'done',
        'r',
        '1-design',
        '--output',
        'other=1',
        '--evidence',
        '.ai_log/real.log',
        '--evidence',
        '.ai_log/empty.log',
        '--evidence',
        '.ai_log/gone.log',
      ],
      p.dir,
    );
    const fail = await baton(['gate', 'r', '1-design'], p.dir);
    assert.equal(fail.code, 1);
    assert.match(fail.stdout, /MISSING output +design_spec +missing \(the contract requires it\)/);
    assert.match(fail.stdout, /ok +evidence +\.ai_log\/real\.log +exists/);
    assert.match(fail.stdout, /MISSING evidence +\.ai_log\/empty\.log +empty file/);
    assert.match(fail.stdout, /MISSING evidence +\.ai_log\/gone\.log +no such file/);
    assert.match(fail.stdout, /gate 1-design: FAIL \(3 of 6 checks do not hold\)\n$/);
    const gate = state(p.dir, 'r').phases['1-design'].gate;
    assert.deepEqual(
      [gate.result, gate.missing],
      ['fail', ['output design_spec', 'evidence .ai_log/empty.log', 'evidence .ai_log/gone.log']],
    );
    await baton(['phase', 'start', 'r', '2-build', '--agent', 'b'], p.dir);
    await baton(['phase', 'done', 'r', '2-build', '--output', 'backend_code=.ai_log/real.log'], p.dir);
    const bare = await baton(['gate', 'r', '2-build', '--json'], p.dir);
    assert.equal(bare.code, 1);
    assert.deepEqual(
      JSON.parse(bare.stdout)
        .rows.filter((row: { holds: boolean }) => !row.holds)
        .map((row: { kind: string }) => row.kind),
      ['evidence'],
    );
  });

  it('the gate follows files, not claims: a symlink out of the project or a hand-edited outside path fails', async (t) => {
    const p = project({ '.ai_log/in.log': 'x' });
    t.after(p.cleanup);
    const outside = join(tmpdir(), `baton-outside-${process.pid}.log`);
    writeFileSync(outside, 'secret');
    t.after(() => rmSync(outside, { force: true }));
    await baton(['run', 'init', 'r'], p.dir);
    await baton(['phase', 'start', 'r', '0-a', '--agent', 'x'], p.dir);
    await baton(['phase', 'done', 'r', '0-a', '--evidence', '.ai_log/in.log', '--evidence', '.ai_log/link.log'], p.dir);
    // `phase done` refuses a symlink out; one made after it is caught by the gate, which reads files.
    symlinkSync(outside, join(p.dir, '.ai_log', 'link.log'));
    // An agent that edits the file by hand cannot smuggle in an outside path either.
    const file = join(p.dir, '.ai_log', 'session-r.json');
    const doc = state(p.dir, 'r');
    doc.phases['0-a'].work_items = ['../../etc/hostname'];
    writeFileSync(file, JSON.stringify(doc));
    const r = await baton(['gate', 'r', '0-a'], p.dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /MISSING evidence +\.ai_log\/link\.log +outside the project/);
    assert.match(r.stdout, /MISSING work_item +\.\.\/\.\.\/etc\/hostname +outside the project/);
    assert.match(r.stdout, /ok +evidence +\.ai_log\/in\.log/);
  });

  it('bad input: unknown run exits 1, bad label or phase key exits 2', async (t) => {
    const p = project();
    t.after(p.cleanup);
    assert.equal((await baton(['gate', 'nope', '0-a'], p.dir)).code, 1);
    assert.equal((await baton(['gate', 'a/b', '0-a'], p.dir)).code, 2);
    assert.equal((await baton(['gate', 'ok', 'A'], p.dir)).code, 2);
    assert.equal((await baton(['gate', 'ok'], p.dir)).code, 2);
    await baton(['run', 'init', 'ok'], p.dir);
    const before = snapshot(p.dir);
    const none = await baton(['gate', 'ok', '5-none'], p.dir);
    assert.deepEqual([none.code, /MISSING status +5-none +no such phase/.test(none.stdout)], [1, true]);
    assert.deepEqual(snapshot(p.dir), before, 'a gate on an unknown phase records nothing');
  });

  it('run show lists phases in contract order with status, agent, duration, outputs, evidence and gate', async (t) => {
    const p = project({ 'workflow.yaml': CONTRACT_YAML, 'docs/prd/x.md': 'x', '.ai_log/p0.md': 'x' });
    t.after(p.cleanup);
    await baton(['run', 'init', 'r', '--contract', 'workflow.yaml'], p.dir);
    await baton(['run', 'set', 'r', 'user_request', 'Gate the blog'], p.dir);
    await baton(['run', 'set', 'r', 'big', 'y'.repeat(300)], p.dir);
    await baton(['phase', 'start', 'r', '0-requirements', '--agent', 'pm'], p.dir);
    await baton(
      ['phase', 'done', 'r', '0-requirements', '--output', 'prd_document=docs/prd/x.md', '--evidence', '.ai_log/p0.md'],
      p.dir,
    );
    await baton(['gate', 'r', '0-requirements'], p.dir);
    await baton(['phase', 'start', 'r', '1-design', '--agent', 'designer'], p.dir);
    mkdirSync(join(p.dir, 'sub'));
    const show = await baton(['run', 'show', 'r'], join(p.dir, 'sub'));
    assert.equal(show.code, 0, show.stderr);
    const lines = show.stdout.split('\n');
    assert.deepEqual(lines.slice(0, 3), ['run r  .ai_log/session-r.json', 'contract: workflow.yaml', 'phases:']);
    assert.match(lines[3] ?? '', /^ {2}0-requirements +done +pm +\d+s +gate pass$/);
    assert.deepEqual(lines.slice(4, 6), [
      '      output    prd_document = docs/prd/x.md',
      '      evidence  .ai_log/p0.md',
    ]);
    assert.match(lines[6] ?? '', /^ {2}1-design +in_progress +designer +\d+s\+$/);
    assert.match(lines[7] ?? '', /^ {2}2-build +todo +backend +-$/);
    assert.deepEqual(lines.slice(8), ['run variables:', '  user_request = Gate the blog', '  big = (300 bytes)', '']);

    const json = await baton(['run', 'show', 'r', '--json'], p.dir);
    assert.equal(json.code, 0, json.stderr);
    const view = JSON.parse(json.stdout);
    assert.deepEqual([view.session, view.file, view.contract], ['r', '.ai_log/session-r.json', 'workflow.yaml']);
    assert.deepEqual(
      view.phases.map((phase: Record<string, unknown>) => [phase.phase, phase.status, phase.agent]),
      [
        ['0-requirements', 'done', 'pm'],
        ['1-design', 'in_progress', 'designer'],
        ['2-build', 'todo', 'backend'],
      ],
    );
    assert.deepEqual(view.phases[0].outputs, { prd_document: 'docs/prd/x.md' });
    assert.equal(view.phases[0].gate.result, 'pass');
    assert.equal(typeof view.phases[0].seconds, 'number');
    assert.equal(view.phases[2].seconds, null);
    assert.deepEqual(view.variables, { user_request: 'Gate the blog', big: 'y'.repeat(300) });
  });
});
