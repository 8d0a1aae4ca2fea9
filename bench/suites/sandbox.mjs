// The OS sandbox of protected phases (docs/gates.md#the-os-sandbox), on a realistic tree (2,000
// project files, a node_modules of 5,000 the scan skips): a shell call run as Claude Code runs it
// (eval, then pwd -P), wrapped vs unwrapped, and the PreToolUse hook with the sandbox (listing the
// protected set, writing the spec) vs without it (BATON_SANDBOX=off: the parser alone).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default async function sandbox(lib) {
  if (spawnSync('bwrap', ['--version']).status !== 0) return [];
  const dir = lib.tempDir('baton-bench-sandbox-');
  const env = lib.benchEnv({ BATON_ROOT: dir, HOME: dir });
  const node = process.execPath;
  const file = (path, text = 'x = 1\n') => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  file('baton.config.json', '{"profile": "eneo"}\n');
  for (let p = 0; p < 40; p++) {
    for (let m = 0; m < 40; m++) file(`backend/src/pkg${p}/mod${m}.py`);
    for (let t = 0; t < 10; t++) file(`backend/tests/pkg${p}/test_mod${t}.py`);
  }
  for (let m = 0; m < 5000; m++) file(`node_modules/dep${m % 100}/lib/f${m}.js`);
  for (const args of [
    ['task', 'init', '--', 'bench', 'deep', '4', 'none', 'none'],
    ['task', 'phase-set', 'GREEN'],
  ]) {
    const r = spawnSync(node, [lib.BATON, ...args], { cwd: dir, env });
    if (r.status !== 0) throw new Error(`baton ${args.join(' ')} failed: ${r.stderr}`);
  }
  const payload = JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    cwd: dir,
    tool_input: { command: 'true' },
  });
  const hook = spawnSync(node, [lib.BATON, 'hook', 'PreToolUse'], { cwd: dir, env, input: payload, encoding: 'utf8' });
  const rewritten = JSON.parse(hook.stdout || '{}').hookSpecificOutput?.updatedInput?.command;
  if (!rewritten) throw new Error(`no rewrite in GREEN: ${hook.stdout} ${hook.stderr}`);
  // Claude Code's shell: eval the command, then record the folder it ended in.
  const host = (command) => ['bash', '-c', 'eval "$1"; pwd -P >/dev/null', 'bash', command];
  return [
    (() => {
      const t = lib.timeInterleaved(
        { wrapped: { argv: host(rewritten) }, plain: { argv: host('true') } },
        { cwd: dir, env },
      );
      return {
        name: 'shell call wrapped vs unwrapped (GREEN, `true`)',
        baton: t.wrapped.ms,
        reference: t.plain.ms,
        cpu: [t.wrapped.cpu, t.plain.cpu],
        unit: 'ms',
        note: 'ref = the same call unwrapped; the difference is the wrapper (bwrap, bash, scan); CPU counts every process of the call',
      };
    })(),
    (() => {
      const t = lib.timeInterleaved(
        {
          sandbox: { argv: [node, lib.BATON, 'hook', 'PreToolUse'], input: payload },
          parser: {
            argv: [node, lib.BATON, 'hook', 'PreToolUse'],
            input: payload,
            env: { ...env, BATON_SANDBOX: 'off' },
          },
        },
        { cwd: dir, env },
      );
      return {
        name: 'hook PreToolUse Bash GREEN, sandbox vs parser only',
        baton: t.sandbox.ms,
        reference: t.parser.ms,
        cpu: [t.sandbox.cpu, t.parser.cpu],
        unit: 'ms',
        note: 'ref = BATON_SANDBOX=off; the difference lists the protected set and writes the spec',
      };
    })(),
  ];
}
