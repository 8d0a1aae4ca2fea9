import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decision, eneoProject, startTask, type EneoProject } from './helpers.js';

/** PreToolUse through the CLI as a process: the eneo profile's gates: phase gate, protected files, bash firewall. */
const write = (dir: string, path: string) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(dir, path), content: 'x' },
});
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

describe('eneo phase gate and protected files', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject();
    startTask(p);
  });
  after(() => p.cleanup());

  it('GREEN denies a test edit with the original message, the slug and the rule id, and allows src', () => {
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    const denied = p.hook('PreToolUse', write(p.dir, 'backend/tests/test_api.py'));
    assert.equal(denied.code, 0);
    const d = decision(denied);
    assert.equal(d.kind, 'deny');
    assert.match(d.reason, /^✗ Blocked: attempted to edit test file during GREEN phase\.\n/);
    assert.match(d.reason, /run '\/eneo-start demo --phase red' to unfreeze/);
    assert.match(d.reason, /\[baton rule gate-green\]/);
    assert.match(denied.stderr, /Blocked: attempted to edit test file/);
    const allowed = p.hook('PreToolUse', write(p.dir, 'backend/src/intric/api.py'));
    assert.deepEqual([allowed.code, allowed.stdout, allowed.stderr], [0, '', '']);
    for (const test of ['x/foo_test.py', 'x/test_dir/a.py', 'web/a.spec.tsx', 'web/__tests__/a.ts']) {
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, test))).kind, 'deny', test);
    }
  });

  it('RED denies red-protected source but not tests inside it; REFACTOR allows both', () => {
    p.task(['phase-set', 'red']);
    const d = decision(p.hook('PreToolUse', write(p.dir, 'backend/src/intric/api.py')));
    assert.equal(d.kind, 'deny');
    assert.match(d.reason, /attempted to edit .*backend\/src\/intric\/api\.py during RED phase/);
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'backend/src/intric/tests/test_a.py'))).kind, 'allow');
    p.task(['phase-set', 'REFACTOR']);
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'backend/src/intric/api.py'))).kind, 'allow');
    assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'backend/tests/test_api.py'))).kind, 'allow');
  });

  it('protects env, lockfiles, ratchet and the mirror in every phase; .env.example is allowed first', () => {
    p.task(['phase-set', 'FREE']);
    const cases: [string, string][] = [
      ['.env', 'protect-env'],
      ['web/.env.local', 'protect-env'],
      ['uv.lock', 'protect-lockfile'],
      ['web/package-lock.json', 'protect-lockfile'],
      ['.claude/ratchet/coverage.json', 'protect-ratchet'],
      ['.claude/state/phase', 'protect-phase-mirror'],
    ];
    for (const [path, rule] of cases)
      assert.match(
        decision(p.hook('PreToolUse', write(p.dir, path))).reason,
        new RegExp(`\\[baton rule ${rule}\\]`),
        path,
      );
    assert.match(decision(p.hook('PreToolUse', write(p.dir, '.claude/state/phase'))).reason, /eneo_phase_set/);
    for (const path of ['.env.example', 'web/.env.sample', '.env.template'])
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, path))).kind, 'allow', path);
  });

  it('reads the path from path / notebook_path and relative paths against the project root', () => {
    assert.equal(decision(p.hook('PreToolUse', { tool_name: 'Edit', tool_input: { path: '.env' } })).kind, 'deny');
    assert.equal(
      decision(p.hook('PreToolUse', { tool_name: 'NotebookEdit', tool_input: { notebook_path: 'uv.lock' } })).kind,
      'deny',
    );
    assert.equal(decision(p.hook('PreToolUse', { tool_name: 'Edit', tool_input: {} })).kind, 'allow');
    assert.equal(
      decision(p.hook('PreToolUse', { tool_name: 'Read', tool_input: { file_path: '.env' } })).kind,
      'allow',
    );
  });
});

describe('eneo bash firewall', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject();
    startTask(p);
  });
  after(() => p.cleanup());

  const rule = (command: string) =>
    /\[baton rule ([a-z-]+)\]/.exec(decision(p.hook('PreToolUse', bash(command))).reason)?.[1];

  it('always blocks writes into the mirror and protected files, and bulk test deletion', () => {
    assert.equal(rule('echo GREEN > .claude/state/phase'), 'bash-phase-mirror');
    assert.equal(rule("sed -i 's/RED/GREEN/' .claude/state/phase"), 'bash-phase-mirror');
    assert.equal(rule('echo SECRET=1 >> .env'), 'bash-protected');
    assert.equal(rule('cat x | tee uv.lock'), 'bash-protected');
    assert.equal(rule('rm -rf backend/tests/'), 'bash-rm-tests');
    assert.equal(rule('echo A=1 >> .env.example'), undefined);
    assert.equal(rule('cat .env'), undefined);
    for (const command of [
      'rm -fr tests/',
      'rm -R backend/tests',
      'rm --recursive backend/tests',
      'find backend/tests -delete',
    ])
      assert.equal(rule(command), 'bash-rm-tests', command);
    assert.equal(rule('rm -rf build/'), undefined);
  });

  it('GREEN blocks test writes and RED blocks red-source .py writes; reads and pipes are fine', () => {
    p.task(['phase-set', 'GREEN']);
    assert.equal(rule('echo x > tests/test_a.py'), 'bash-green-tests');
    assert.equal(rule('echo x >> web/a.spec.ts'), 'bash-green-tests');
    assert.equal(rule('cat tests/test_a.py | grep x'), undefined);
    assert.equal(rule('pytest > log.txt; cat tests/x'), undefined, 'targets stop at ;');
    p.task(['phase-set', 'RED']);
    assert.equal(rule('echo x > backend/src/intric/a.py'), 'bash-red-source');
    assert.equal(rule('echo x > backend/src/intric/notes.md'), undefined);
    assert.equal(rule('echo x > tests/test_a.py'), undefined);
  });

  it('an empty or missing command allows; one that is not text fails closed in a protected phase', () => {
    for (const payload of [bash(''), { tool_name: 'Bash' }]) {
      const r = p.hook('PreToolUse', payload);
      assert.deepEqual([r.code, r.stdout], [0, '']);
    }
    // It cannot be given back rewritten, so the sandbox cannot hold it.
    const numeric = p.hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 42 } });
    assert.match(numeric.stdout, /no OS sandbox \(the command was not given as text\)/);
  });
});

describe('rules of a project config', () => {
  it('adds rules conditioned on any document field, replaces and disables profile rules', () => {
    const p = eneoProject(
      {},
      {
        profile: 'eneo',
        disable: ['protect-lockfile'],
        pathClasses: { docs: ['*/docs/*.md'] },
        rules: [
          {
            id: 'docs-frozen',
            on: 'both',
            when: { field: 'status', in: ['verified'] },
            paths: ['docs'],
            message: 'docs are frozen once {slug} is verified ({file})',
          },
          { id: 'no-force-push', on: 'bash', command: 'git\\s+push\\s+.*--force' },
        ],
      },
    );
    try {
      startTask(p);
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'uv.lock'))).kind, 'allow');
      assert.equal(decision(p.hook('PreToolUse', write(p.dir, 'docs/a.md'))).kind, 'allow');
      p.task(['update', '--', '.status = "verified"']);
      assert.match(
        decision(p.hook('PreToolUse', write(p.dir, 'docs/a.md'))).reason,
        /docs are frozen once demo is verified \(.*docs\/a\.md\)/,
      );
      assert.match(decision(p.hook('PreToolUse', bash('echo hi > docs/b.md'))).reason, /docs-frozen/);
      assert.match(
        decision(p.hook('PreToolUse', bash('git push origin main --force'))).reason,
        /Blocked by baton rule 'no-force-push'/,
      );
    } finally {
      p.cleanup();
    }
  });

  it('a config with errors fails closed for a gate and says why to the user, the model and the debug log', () => {
    const p = eneoProject({}, { profile: 'eneo', rules: [{ id: 'x', on: 'write', command: '(' }] });
    try {
      const r = p.hook('PreToolUse', write(p.dir, 'src/app.py'));
      assert.equal(r.code, 0);
      const { kind, reason } = decision(r);
      assert.equal(kind, 'deny');
      assert.match(reason, /rules\[0\]\.on: expected one of "edit", "bash", "both", found "write"/);
      assert.match(reason, /rules\[0\]\.command: expected a valid regular expression, found "\("/);
      assert.match(p.read('.debug.log'), /edit and shell tools are denied until it is fixed/);
    } finally {
      p.cleanup();
    }
  });

  it('a project without baton.config.json gets no decisions and no files', () => {
    const p = eneoProject();
    try {
      p.write('baton.config.json', '{}');
      const r = p.hook('PreToolUse', write(p.dir, '.env'));
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.equal(existsSync(join(p.dir, '.claude')), false);
    } finally {
      p.cleanup();
    }
  });
});
