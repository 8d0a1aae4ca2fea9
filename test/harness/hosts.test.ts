import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eneoProject, startTask, type EneoProject } from './helpers.js';

/** One policy, four hosts: each adapter's event names, tool names and decision format. */
describe('host adapters', () => {
  let p: EneoProject;
  before(() => {
    p = eneoProject();
    startTask(p);
    p.task(['phase-set', 'GREEN']);
  });
  after(() => p.cleanup());

  it('codex: apply_patch paths from the patch envelope, shell argv, Claude-style deny', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: tests/test_app.py\n+x\n*** End Patch\n';
    const r = p.hook(
      'PreToolUse',
      { hook_event_name: 'PreToolUse', turn_id: 't1', tool_name: 'apply_patch', tool_input: { input: patch } },
      ['--host', 'codex'],
    );
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(out.hookSpecificOutput.permissionDecisionReason, /gate-green/);
    const shell = p.hook(
      'PreToolUse',
      { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'echo x > tests/test_a.py'] } },
      ['--host', 'codex'],
    );
    assert.match(shell.stdout, /bash-green-tests/);
    const ok = p.hook(
      'PreToolUse',
      {
        tool_name: 'apply_patch',
        tool_input: { input: '*** Begin Patch\n*** Update File: src/app.py\n*** End Patch' },
      },
      ['--host', 'codex'],
    );
    assert.equal(ok.stdout, '');
  });

  it('gemini: BeforeTool with write_file / run_shell_command, decision deny + reason; context as additionalContext', () => {
    const r = p.hook(
      'BeforeTool',
      {
        hook_event_name: 'BeforeTool',
        tool_name: 'write_file',
        tool_input: { file_path: join(p.dir, 'tests/test_a.py') },
      },
      ['--host', 'gemini'],
    );
    const out = JSON.parse(r.stdout) as { decision: string; reason: string };
    assert.equal(out.decision, 'deny');
    assert.match(out.reason, /GREEN phase[\s\S]*gate-green/);
    assert.match(
      JSON.parse(
        p.hook('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'echo > .env' } }, [
          '--host',
          'gemini',
        ]).stdout,
      ).reason,
      /bash-protected/,
    );
    assert.equal(
      p.hook('BeforeTool', { tool_name: 'write_file', tool_input: { file_path: 'src/a.py' } }, ['--host', 'gemini'])
        .stdout,
      '',
    );
    const start = JSON.parse(p.hook('SessionStart', { source: 'startup' }, ['--host', 'gemini']).stdout) as {
      hookSpecificOutput: { additionalContext: string };
    };
    assert.equal(start.hookSpecificOutput.additionalContext, 'Resume: demo · GREEN');
    const unknown = p.hook('PreToolUse', { tool_name: 'write_file' }, ['--host', 'gemini']);
    // A Claude event name in Gemini's settings is a typo: its gate would never run, so it denies.
    assert.equal(unknown.code, 0);
    assert.match(
      JSON.parse(unknown.stdout).reason,
      /unknown event 'PreToolUse' for gemini; baton handles .*BeforeTool/,
    );
  });

  it('cursor: preToolUse and beforeShellExecution answer permission deny with user and agent messages', () => {
    const edit = JSON.parse(
      p.hook(
        'preToolUse',
        {
          conversation_id: 'c',
          workspace_roots: [p.dir],
          tool_name: 'Write',
          tool_input: { file_path: 'tests/test_a.py' },
        },
        ['--host', 'cursor'],
      ).stdout,
    ) as Record<string, string>;
    assert.equal(edit.permission, 'deny');
    assert.match(edit.user_message ?? '', /gate-green/);
    assert.equal(edit.agent_message, edit.user_message);
    const shell = JSON.parse(
      p.hook('beforeShellExecution', { command: 'echo x >> uv.lock', cwd: p.dir }, ['--host', 'cursor']).stdout,
    ) as Record<string, string>;
    assert.equal(shell.permission, 'deny');
    assert.equal(p.hook('beforeShellExecution', { command: 'ls' }, ['--host', 'cursor']).stdout, '');
    assert.equal(
      JSON.parse(p.hook('sessionStart', {}, ['--host', 'cursor']).stdout).additional_context,
      'Resume: demo · GREEN',
    );
  });

  it('an unknown host exits 0 with nothing', () => {
    const r = p.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: '.env' } }, ['--host', 'vim']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  });
});
