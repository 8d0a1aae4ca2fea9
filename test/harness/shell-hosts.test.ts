import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eneoProject, startTask, type EneoProject } from './helpers.js';

/** The shell analysis behind every host adapter: Codex argv and apply_patch, Gemini and Cursor shells, each tool's own folder. */
describe('parsed shell gate on every host (GREEN)', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject({ 'tests/test_a.py': 'x\n', 'src/app.py': 'x\n' });
    startTask(p);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
  });
  after(() => p.cleanup());

  const denied = (stdout: string) => /bash-green-tests|gate-green/.test(stdout);

  it('codex: shell argv ["apply_patch", patch] and ["bash", "-lc", ...] are read as the argv they run', () => {
    const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-x\n+y\n*** End Patch`;
    const codex = (command: string[], extra: Record<string, unknown> = {}) =>
      p.hook(
        'PreToolUse',
        { hook_event_name: 'PreToolUse', tool_name: 'shell', cwd: p.dir, tool_input: { command, ...extra } },
        ['--host', 'codex'],
      ).stdout;
    assert.ok(denied(codex(['apply_patch', patch('tests/test_a.py')])));
    assert.equal(codex(['apply_patch', patch('src/app.py')]), '');
    assert.ok(denied(codex(['bash', '-lc', "echo x >| 'te''sts/test_a.py'"])));
    assert.equal(
      codex(['bash', '-lc', 'git commit -m "steering committee" && echo ok > /tmp/baton-shell-hosts.txt']),
      '',
    );
    assert.ok(
      denied(codex(['bash', '-lc', 'echo x > test_a.py'], { workdir: 'tests' })),
      'workdir is where the command runs',
    );
    assert.equal(codex(['bash', '-lc', 'echo x > app.py'], { workdir: 'src' }), '');
  });

  it('gemini: run_shell_command with its directory', () => {
    const gemini = (command: string, directory?: string) =>
      p.hook(
        'BeforeTool',
        {
          hook_event_name: 'BeforeTool',
          tool_name: 'run_shell_command',
          cwd: p.dir,
          tool_input: { command, ...(directory ? { directory } : {}) },
        },
        ['--host', 'gemini'],
      ).stdout;
    assert.ok(denied(gemini('D=tests; sed -Ei s/a/b/ $D/test_a.py')));
    assert.ok(denied(gemini('touch test_new.py', 'tests')));
    assert.equal(gemini('touch new.py', 'src'), '');
    assert.equal(gemini('pytest tests/ > /tmp/baton-gemini.log'), '');
  });

  it('cursor: beforeShellExecution and preToolUse Shell', () => {
    const before = (command: string) =>
      p.hook('beforeShellExecution', { command, cwd: p.dir, workspace_roots: [p.dir] }, ['--host', 'cursor']).stdout;
    assert.match(before('echo x >| tests/test_a.py'), /"permission":"deny"/);
    assert.match(before('cd tests && rm -f test_a.py'), /"permission":"deny"/);
    assert.equal(before('cd src && echo x > b.py'), '');
    const shell = p.hook(
      'preToolUse',
      { tool_name: 'Shell', cwd: p.dir, workspace_roots: [p.dir], tool_input: { command: 'find tests -delete' } },
      ['--host', 'cursor'],
    ).stdout;
    assert.match(shell, /"permission":"deny"/);
  });
});
