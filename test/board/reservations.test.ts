/**
 * File reservations through the real PreToolUse hook process: while an item is claimed, its paths
 * are its holder's, and every other agent's write there (another subagent's, the orchestrator's)
 * is denied naming the item and the holder, by edit tool or by shell, however the path is
 * spelled: through a symlink, with `..`, in another case, absolute or relative, or inside a folder
 * removed whole. A board that cannot be read denies writes in the project, naming the fix.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { decision, eneoProject } from '../harness/helpers.js';
import { BOARD_KEY } from '../../src/board/model.js';

const SESSION = 'session-1';
const HOLDER = 'a4dfaab062324b293';
const OTHER = 'a31f580b12cdf42a2';

/** A project whose board has `api` (src/api/**) claimed by HOLDER and `ui` open; `config` as given, or none. */
function claimedProject(config?: object) {
  const p = eneoProject({ 'src/api/handler.ts': 'x', 'src/ui/form.ts': 'x', 'README.md': 'x' }, config ?? {});
  if (config === undefined) rmSync(join(p.dir, 'baton.config.json'));
  const work = (args: string[], env: Record<string, string> = {}) =>
    baton(['work', ...args], { cwd: p.dir, env: { ...p.env, ...env } });
  assert.equal(work(['add', 'api', '--title', 'API endpoint', '--paths', 'src/api/**']).code, 0);
  assert.equal(work(['add', 'ui', '--title', 'UI form', '--paths', 'src/ui/**']).code, 0);
  const claimed = work(['claim', 'api'], { BATON_AGENT: HOLDER, BATON_SESSION: SESSION });
  assert.equal(claimed.code, 0, claimed.stderr);
  const as = (agent: string | undefined) =>
    agent ? { session_id: SESSION, agent_id: agent } : { session_id: SESSION };
  return {
    ...p,
    work,
    edit(agent: string | undefined, tool: string, input: Record<string, unknown>) {
      return decision(p.hook('PreToolUse', { ...as(agent), tool_name: tool, tool_input: input, cwd: p.dir }));
    },
    shell(agent: string | undefined, command: string, cwd = p.dir) {
      return decision(p.hook('PreToolUse', { ...as(agent), tool_name: 'Bash', tool_input: { command }, cwd }));
    },
  };
}

const NAMED =
  /is reserved to work-board item api \("API endpoint"\), held by a4dfaab062324b293 until .*\n {2}Fix: {2}leave src\/api\/\*\* to a4dfaab062324b293/;

describe('file reservations of the work board', () => {
  it('edit tools: another subagent and the orchestrator are denied, naming the item and holder; the holder writes', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    const file = join(p.dir, 'src/api/handler.ts');
    for (const [tool, input] of [
      ['Write', { file_path: file, content: 'y' }],
      ['Edit', { file_path: file, old_string: 'x', new_string: 'y' }],
      ['MultiEdit', { file_path: join(p.dir, 'src/api/new.ts'), edits: [] }],
      ['NotebookEdit', { notebook_path: join(p.dir, 'src/api/n.ipynb'), new_source: '' }],
    ] as const) {
      for (const agent of [OTHER, undefined]) {
        const answer = p.edit(agent, tool, input);
        assert.equal(answer.kind, 'deny', `${tool} by ${agent ?? 'main'}`);
        assert.match(answer.reason, NAMED);
        assert.match(answer.reason, /\[baton rule board-reserved\]/);
      }
      assert.equal(p.edit(HOLDER, tool, input).kind, 'allow', `${tool} by the holder`);
    }
    assert.equal(p.edit(OTHER, 'Write', { file_path: join(p.dir, 'src/ui/form.ts'), content: '' }).kind, 'allow');
    assert.equal(p.edit(OTHER, 'Write', { file_path: join(p.dir, 'README.md'), content: '' }).kind, 'allow');
  });

  it('the same name in another session is another agent', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    const answer = decision(
      p.hook('PreToolUse', {
        session_id: 'session-2',
        agent_id: HOLDER,
        tool_name: 'Write',
        tool_input: { file_path: join(p.dir, 'src/api/x.ts'), content: '' },
      }),
    );
    assert.equal(answer.kind, 'deny');
  });

  it('every spelling of a reserved path is the path: a link into it, .., case, relative, a linked project root', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    symlinkSync(join(p.dir, 'src/api'), join(p.dir, 'shortcut'));
    symlinkSync(join(p.dir, 'src/api/handler.ts'), join(p.dir, 'notes.md'));
    symlinkSync(p.dir, join(p.dir, '..', `${p.dir.split('/').pop()}-link`));
    const linkedRoot = join(p.dir, '..', `${p.dir.split('/').pop()}-link`);
    t.after(() => rmSync(linkedRoot));
    for (const path of [
      join(p.dir, 'shortcut/handler.ts'),
      join(p.dir, 'notes.md'),
      join(p.dir, 'src/ui/../api/handler.ts'),
      join(p.dir, 'SRC/Api/handler.ts'),
      join(linkedRoot, 'src/api/handler.ts'),
    ]) {
      const answer = p.edit(OTHER, 'Write', { file_path: path, content: '' });
      assert.equal(answer.kind, 'deny', path);
      assert.match(answer.reason, /held by a4dfaab062324b293/, path);
    }
    for (const command of [
      'echo hi > src/api/handler.ts',
      'echo hi > ./src//api/x.ts',
      'cd src && echo hi > api/x.ts',
      'echo hi > shortcut/x.ts',
      'echo hi >> notes.md',
      `cp README.md ${join(p.dir, 'src/api/')}`,
      'sed -i s/x/y/ src/ui/../api/handler.ts',
      'rm -rf src',
      'mv src elsewhere',
    ]) {
      const answer = p.shell(OTHER, command);
      assert.equal(answer.kind, 'deny', command);
      assert.match(answer.reason, /held by a4dfaab062324b293/, command);
    }
    assert.equal(p.shell(OTHER, 'echo hi > src/ui/x.ts').kind, 'allow');
    assert.equal(p.shell(OTHER, 'cat src/api/handler.ts').kind, 'allow');
    assert.equal(p.shell(HOLDER, 'echo hi > shortcut/x.ts').kind, 'allow');
  });

  it('a shell write baton cannot resolve that names a reserved path is denied (strict mode)', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    for (const command of [
      'eval "$CMD" src/api/handler.ts',
      'python3 -c "import sys; open(sys.argv[1], \'w\')" src/api/handler.ts',
    ]) {
      const answer = p.shell(OTHER, command);
      assert.equal(answer.kind, 'deny', command);
      assert.match(
        answer.reason,
        /src\/api\/handler\.ts, which rule board-reserved protects now \(is reserved to work-board item api \("API endpoint"\), held by a4dfaab062324b293 until [^)]*\)\./,
      );
    }
    assert.equal(p.shell(OTHER, 'eval "$CMD" src/ui/form.ts').kind, 'allow');
  });

  it("a project's allow-list does not lift a reservation; the rules of its profile still apply", (t) => {
    const p = claimedProject({ allow: ['src/api/**'] });
    t.after(p.cleanup);
    assert.equal(p.edit(OTHER, 'Write', { file_path: join(p.dir, 'src/api/x.ts'), content: '' }).kind, 'deny');
  });

  it('Codex: apply_patch and a subagent Bash call (payloads as recorded from Codex 0.171) are held the same way', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    const codex = (payload: Record<string, unknown>) =>
      decision(
        baton(['hook', 'PreToolUse', '--host', 'codex'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) }),
      );
    const patch = codex({
      session_id: SESSION,
      agent_id: OTHER,
      cwd: p.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: src/api/new.py\n+x = 1\n*** End Patch\n' },
    });
    assert.equal(patch.kind, 'deny');
    assert.match(patch.reason, NAMED);
    const shell = codex({
      session_id: SESSION,
      agent_id: OTHER,
      cwd: p.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo b > src/api/b.txt' },
    });
    assert.equal(shell.kind, 'deny');
  });

  it('a reservation ends with its claim: done, release, or the agent ending', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    const write = () => p.edit(OTHER, 'Write', { file_path: join(p.dir, 'src/api/x.ts'), content: '' }).kind;
    assert.equal(write(), 'deny');
    p.hook('SubagentStop', { session_id: SESSION, agent_id: HOLDER, last_assistant_message: 'bye' });
    assert.equal(write(), 'allow');
    assert.equal(p.work(['claim', 'api'], { BATON_AGENT: HOLDER, BATON_SESSION: SESSION }).code, 0);
    assert.equal(write(), 'deny');
    assert.equal(p.work(['done', 'api'], { BATON_AGENT: HOLDER, BATON_SESSION: SESSION }).code, 0);
    assert.equal(write(), 'allow');
  });

  it('a board that cannot be looked at (a link to itself) is not taken for no board: the claim holds', (t) => {
    // No config: whether the hook looks for a board at all is told by the board's file, and a path
    // existsSync cannot look at (ELOOP, EACCES) read as "no board", which lifted every claim.
    const p = claimedProject();
    t.after(p.cleanup);
    const board = join(p.dir, BOARD_KEY);
    rmSync(board);
    symlinkSync(board, board);
    assert.equal(p.edit(OTHER, 'Write', { file_path: join(p.dir, 'src/api/handler.ts'), content: 'y' }).kind, 'deny');
  });

  it('a board that cannot be read denies writes in the project, naming the fix; reads and writes elsewhere go on', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    writeFileSync(join(p.dir, BOARD_KEY), '{ not json');
    const answer = p.edit(OTHER, 'Write', { file_path: join(p.dir, 'README.md'), content: '' });
    assert.equal(answer.kind, 'deny');
    assert.match(
      answer.reason,
      /the work board could not be read \(.*\), so baton cannot tell whether .*README\.md is reserved/,
    );
    assert.match(answer.reason, /'baton work show' names the problem; 'baton revert \.claude\/state\/board\.json'/);
    assert.equal(p.shell(OTHER, 'echo hi > src/ui/x.ts').kind, 'deny');
    assert.equal(p.shell(OTHER, 'cat README.md').kind, 'allow');
    assert.equal(p.shell(OTHER, 'echo hi > /dev/null').kind, 'allow');
    // Not JSON of a board either: a board the schema refuses.
    writeFileSync(join(p.dir, BOARD_KEY), '{"items": {"a": 1}, "claims": 0}');
    assert.equal(p.edit(OTHER, 'Write', { file_path: join(p.dir, 'README.md'), content: '' }).kind, 'deny');
  });

  it('the board itself is baton state: no tool or shell write may lift a reservation by editing or removing it', (t) => {
    const p = claimedProject();
    t.after(p.cleanup);
    for (const agent of [OTHER, HOLDER, undefined]) {
      assert.equal(p.edit(agent, 'Write', { file_path: join(p.dir, BOARD_KEY), content: '{}' }).kind, 'deny');
      assert.equal(p.shell(agent, `rm ${BOARD_KEY}`).kind, 'deny');
    }
    mkdirSync(join(p.dir, 'tmp'));
    assert.equal(p.shell(OTHER, 'baton work show').kind, 'allow', 'baton work itself still runs');
  });
});
