import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPipeline, type HookRun } from '../../src/harness/hooks/pipeline.js';
import { claude } from '../../src/harness/hosts/claude.js';
import { tempTree } from '../helpers/fixtures.js';

// The pipeline's rule for a handler that throws, for every event: gated events (PreToolUse with
// rules, Stop with a barrier) answer deny / block with the error's one line; others stay silent.
const throwing = async () => async () => {
  throw new TypeError('boom');
};

function run(dir: string, hostEvent: string, raw: Record<string, unknown>, config: object): HookRun {
  return {
    adapter: claude,
    hostEvent,
    raw,
    garbage: false,
    config: config as Record<string, unknown>,
    root: dir,
    cwd: dir,
    env: { BATON_DEBUG_LOG: `${dir}/debug.log`, TMPDIR: dir },
  };
}

test('a throwing handler: PreToolUse with rules denies, Stop with a barrier blocks once, ungated events stay silent', async (t) => {
  const tree = tempTree();
  t.after(tree.cleanup);
  const handlers = { PreToolUse: throwing, Stop: throwing, SessionStart: throwing, PreCompact: throwing };
  const rules = { rules: [{ id: 'r', on: 'edit', paths: ['x'], message: 'no' }] };
  const write = { tool_name: 'Write', tool_input: { file_path: 'x', content: '' } };

  const pre = await runPipeline(run(tree.dir, 'PreToolUse', write, rules), handlers);
  const denial = JSON.parse(pre.stdout).hookSpecificOutput;
  assert.equal(denial.permissionDecision, 'deny');
  assert.match(
    denial.permissionDecisionReason,
    /^baton: the PreToolUse hook failed \(internal error: TypeError: boom\)/,
  );

  const stop = await runPipeline(run(tree.dir, 'Stop', { stop_hook_active: false }, { stop: {} }), handlers);
  assert.equal(JSON.parse(stop.stdout).decision, 'block');
  const again = await runPipeline(run(tree.dir, 'Stop', { stop_hook_active: true }, { stop: {} }), handlers);
  assert.equal(again.stdout, '', 'a continuation is never blocked again');

  // Without rules (or a barrier) nothing is gated: the failure is logged and the call goes on.
  for (const [event, config] of [
    ['PreToolUse', {}],
    ['Stop', {}],
    ['SessionStart', rules],
    ['PreCompact', rules],
  ] as const) {
    const r = await runPipeline(run(tree.dir, event, event === 'PreToolUse' ? write : {}, config), handlers);
    assert.deepEqual([r.code, r.stdout], [0, ''], event);
    assert.match(r.stderr, /internal error in \w+, allowing: TypeError: boom/);
  }
});
