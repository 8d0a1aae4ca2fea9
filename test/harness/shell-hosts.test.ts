import assert from 'node:assert/strict';
import { join } from 'node:path';
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
  // Without a rewrite there is no OS sandbox for the call: what the parser does not deny is allowed
  // only when proved harmless (docs/gates.md, "Without a sandbox"). Cursor's hooks cannot rewrite a
  // command; Codex can rewrite only a command given as text.
  const unproved = (stdout: string, why: string) =>
    new RegExp(`no OS sandbox \\(${why}\\)`).test(stdout) && !/Blocked by|bash modification/.test(stdout);
  // Codex 0.171 (a text command) and Gemini CLI take the command back rewritten into the sandbox.
  const sandboxed = (stdout: string) => /sandbox\/run\.sh/.test(stdout) && !/"deny"/.test(stdout);

  it('codex: shell argv ["apply_patch", patch] and ["bash", "-lc", ...] are read as the argv they run', () => {
    const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-x\n+y\n*** End Patch`;
    const codex = (command: string[], extra: Record<string, unknown> = {}) =>
      p.hook(
        'PreToolUse',
        { hook_event_name: 'PreToolUse', tool_name: 'shell', cwd: p.dir, tool_input: { command, ...extra } },
        ['--host', 'codex'],
      ).stdout;
    assert.ok(denied(codex(['apply_patch', patch('tests/test_a.py')])));
    // A patch's paths are relative to where it is applied (the call's folder), not the project root.
    assert.ok(denied(codex(['apply_patch', patch('helper.py')], { workdir: 'tests' })));
    const tool = p.hook(
      'PreToolUse',
      { tool_name: 'apply_patch', cwd: join(p.dir, 'tests'), tool_input: { input: patch('helper.py') } },
      ['--host', 'codex'],
    ).stdout;
    assert.ok(denied(tool), tool);
    assert.equal(codex(['apply_patch', patch('src/app.py')]), '');
    assert.ok(denied(codex(['bash', '-lc', "echo x >| 'te''sts/test_a.py'"])));
    assert.ok(
      unproved(
        codex(['bash', '-lc', 'git commit -m "steering committee" && echo ok > /tmp/baton-shell-hosts.txt']),
        'the command was not given as text',
      ),
    );
    assert.ok(
      denied(codex(['bash', '-lc', 'echo x > test_a.py'], { workdir: 'tests' })),
      'workdir is where the command runs',
    );
    assert.ok(
      unproved(codex(['bash', '-lc', 'echo x > app.py'], { workdir: 'src' }), 'the command was not given as text'),
    );
    // Codex 0.171's shape: tool_name Bash, a string command; "allow" is what makes Codex apply it.
    const bash = JSON.parse(
      p.hook(
        'PreToolUse',
        { hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: p.dir, tool_input: { command: 'sh write.sh' } },
        ['--host', 'codex'],
      ).stdout,
    );
    assert.equal(bash.hookSpecificOutput.permissionDecision, 'allow');
    assert.ok(sandboxed(bash.hookSpecificOutput.updatedInput.command), bash.hookSpecificOutput.updatedInput.command);
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
    const rewritten = JSON.parse(gemini('touch new.py', 'src'));
    assert.ok(sandboxed(rewritten.hookSpecificOutput.tool_input.command));
    assert.equal(rewritten.hookSpecificOutput.tool_input.directory, 'src', 'the rest of tool_input kept');
    assert.equal(rewritten.decision, undefined);
    assert.ok(sandboxed(gemini('pytest tests/ > /tmp/baton-gemini.log')));
    assert.ok(sandboxed(gemini('grep -r add tests/ | head -3')), 'with a sandbox every call runs in it');
    // Gemini refuses command substitution outside single quotes; quoted inside the sandbox call it
    // could not see it, so such a command goes unwrapped, under the harmless-only rule.
    assert.ok(unproved(gemini('echo $(date) > src/when.py'), 'Gemini CLI refuses command substitution[^)]*'));
    assert.ok(unproved(gemini('echo `date` > src/when.py'), 'Gemini CLI refuses command substitution[^)]*'));
    assert.ok(sandboxed(gemini("echo '$(date)' > src/when.py")));
    assert.ok(sandboxed(gemini('echo \\$\\(date\\) > src/when.py')));
  });

  it('cursor: beforeShellExecution and preToolUse Shell', () => {
    const before = (command: string) =>
      p.hook('beforeShellExecution', { command, cwd: p.dir, workspace_roots: [p.dir] }, ['--host', 'cursor']).stdout;
    assert.match(before('echo x >| tests/test_a.py'), /"permission":"deny"/);
    assert.match(before('cd tests && rm -f test_a.py'), /"permission":"deny"/);
    assert.ok(unproved(before('cd src && echo x > b.py'), 'cursor cannot run a rewritten shell command'));
    assert.equal(before('cd src && ls'), '', 'proved harmless');
    const shell = p.hook(
      'preToolUse',
      { tool_name: 'Shell', cwd: p.dir, workspace_roots: [p.dir], tool_input: { command: 'find tests -delete' } },
      ['--host', 'cursor'],
    ).stdout;
    assert.match(shell, /"permission":"deny"/);
  });
});
