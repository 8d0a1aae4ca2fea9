/**
 * File reservations inside the OS sandbox of a protected phase (eneo, GREEN), for real: the hook's
 * rewrite runs in bash as Claude Code runs it, with the real bubblewrap. The write is hidden from
 * the parser (`eval` of base64-decoded text), so what stops it is the sandbox holding another
 * agent's reserved paths read-only. The holder's own call writes them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton } from '../helpers/cli.js';
import { tempDir, tempTree } from '../helpers/fixtures.js';

const bwrap = spawnSync('bwrap', ['--dev-bind', '/', '/', '--unshare-pid', 'true']).status === 0;

function project() {
  const tree = tempTree({
    'baton.config.json': JSON.stringify({ profile: 'eneo' }),
    '.claude/state/phase': 'GREEN\n',
    'src/api/handler.ts': 'original\n',
    'src/ui/form.ts': 'original\n',
  });
  const home = tempDir('baton-sandbox-home-');
  const env = { CLAUDE_PROJECT_DIR: tree.dir, HOME: home, TMPDIR: home };
  const work = (args: string[], extra: Record<string, string> = {}) =>
    baton(['work', ...args], { cwd: tree.dir, env: { ...env, ...extra } });
  assert.equal(work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']).code, 0);
  assert.equal(work(['add', 'ui', '--title', 'UI', '--paths', 'src/ui/**']).code, 0);
  assert.equal(work(['claim', 'api'], { BATON_AGENT: 'holder', BATON_SESSION: 's1' }).code, 0);
  return {
    dir: tree.dir,
    /** The hook's answer to `command` from `agent`, run as the host runs it when it is a rewrite. */
    run(agent: string, command: string) {
      const input = JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's1',
        agent_id: agent,
        cwd: tree.dir,
        tool_name: 'Bash',
        tool_input: { command },
      });
      const hook = baton(['hook', 'PreToolUse'], { cwd: tree.dir, env, input });
      assert.equal(hook.code, 0, hook.stderr);
      const out = JSON.parse(hook.stdout || '{}').hookSpecificOutput ?? {};
      assert.notEqual(
        out.permissionDecision,
        'deny',
        `the parser cannot see this write: ${out.permissionDecisionReason}`,
      );
      const rewritten = out.updatedInput?.command as string | undefined;
      assert.ok(rewritten, `no rewrite for ${command}`);
      return spawnSync('bash', ['-c', rewritten], {
        cwd: tree.dir,
        env: { PATH: process.env.PATH, HOME: home },
        encoding: 'utf8',
      });
    },
    read: (path: string) => readFileSync(join(tree.dir, path), 'utf8'),
    cleanup: () => {
      tree.cleanup();
      spawnSync('rm', ['-rf', home]);
    },
  };
}

const hidden = (shell: string) => `eval "$(echo ${Buffer.from(shell).toString('base64')} | base64 -d)"`;

describe('reservations in the OS sandbox', { skip: !bwrap && 'bubblewrap cannot start here' }, () => {
  it("another agent's hidden write to a reserved file fails; its own item's files and the holder's writes go through", (t) => {
    const p = project();
    t.after(p.cleanup);
    const blocked = p.run('other', hidden('echo forged > src/api/handler.ts'));
    assert.notEqual(blocked.status, 0);
    assert.match(blocked.stderr, /Read-only file system/);
    assert.equal(p.read('src/api/handler.ts'), 'original\n');
    const free = p.run('other', hidden('echo mine > src/ui/form.ts'));
    assert.equal(free.status, 0, free.stderr);
    assert.equal(p.read('src/ui/form.ts'), 'mine\n');
    const holder = p.run('holder', hidden('echo done > src/api/handler.ts'));
    assert.equal(holder.status, 0, holder.stderr);
    assert.equal(p.read('src/api/handler.ts'), 'done\n');
  });
});
