/**
 * File reservations of a work board whose documents live on PostgreSQL, through the real
 * PreToolUse and SubagentStop hook processes: two project folders (two machines) share one
 * project, so the hook on the second machine knows of the first one's claim only through the store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';
import { decision, eneoProject, type EneoProject } from '../harness/helpers.js';

const SESSION = 'session-1';
const A = 'a4dfaab062324b293';
const B = 'a31f580b12cdf42a2';

describe('file reservations of a work board on PostgreSQL', () => {
  let cluster: Cluster;
  let stopped = false;
  const projects: EneoProject[] = [];
  before(async () => {
    cluster = await startCluster();
  });
  after(() => {
    for (const p of projects) p.cleanup();
    if (!stopped) cluster.stop();
  });

  it("another agent's write to a claimed item's paths is denied naming the holder, the holder's allowed; SubagentStop gives the item back; with the server down every write fails closed naming the fix", async () => {
    const url = await cluster.createDatabase('board');
    const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
    assert.equal(migrate.code, 0, migrate.stderr);
    const machine = () => {
      const p = eneoProject({ 'src/api/handler.ts': 'x' }, { store: url, project: 'board' });
      projects.push(p);
      return p;
    };
    const a = machine();
    const b = machine();
    const work = (p: EneoProject, args: string[], agent?: string) =>
      baton(['work', ...args], {
        cwd: p.dir,
        env: { ...p.env, ...(agent ? { BATON_AGENT: agent, BATON_SESSION: SESSION } : {}) },
      });
    const added = work(a, ['add', 'api', '--title', 'API endpoint', '--paths', 'src/api/**']);
    assert.equal(added.code, 0, added.stderr);
    const claimed = work(a, ['claim', 'api'], A);
    assert.equal(claimed.code, 0, claimed.stderr);
    assert.equal(claimed.stdout.trim(), 'api');

    // The board is a document of the store: b's folder holds no copy the gate could judge by.
    assert.equal(existsSync(join(b.dir, '.claude/state/board.json')), false);
    const edit = (agent: string, tool: 'Write' | 'Edit', at: EneoProject = b) => {
      const file = join(at.dir, 'src/api/handler.ts');
      return at.hook('PreToolUse', {
        session_id: SESSION,
        agent_id: agent,
        cwd: at.dir,
        tool_name: tool,
        tool_input:
          tool === 'Write' ? { file_path: file, content: 'y' } : { file_path: file, old_string: 'x', new_string: 'y' },
      });
    };
    for (const tool of ['Write', 'Edit'] as const) {
      const denied = decision(edit(B, tool));
      assert.equal(denied.kind, 'deny', `${tool} by B`);
      assert.match(
        denied.reason,
        /is reserved to work-board item api \("API endpoint"\), held by a4dfaab062324b293 until .*\n {2}Fix: {2}leave src\/api\/\*\* to a4dfaab062324b293/,
      );
      assert.equal(decision(edit(A, tool)).kind, 'allow', `${tool} by A, the holder`);
    }

    // A ends on the other machine: its claim ends in the store, and B may write there.
    const stop = a.hook('SubagentStop', { session_id: SESSION, agent_id: A, last_assistant_message: 'bye' });
    assert.equal(stop.code, 0, stop.stderr);
    for (const tool of ['Write', 'Edit'] as const) assert.equal(decision(edit(B, tool)).kind, 'allow', `${tool} by B`);

    // Claimed again, then the server goes: the board cannot be read, so no write may pass on a guess.
    assert.equal(work(a, ['claim', 'api'], A).code, 0);
    assert.equal(decision(edit(B, 'Write')).kind, 'deny');
    cluster.stop();
    stopped = true;
    // On either machine, whatever its own folder holds: neither judges by a copy of the board.
    for (const [agent, at] of [
      [B, b],
      [A, b],
      [B, a],
      [A, a],
    ] as const) {
      const r = edit(agent, 'Write', at);
      assert.equal(r.code, 0, r.stderr);
      const denied = decision(r);
      assert.equal(denied.kind, 'deny', `Write by ${agent} on ${at === a ? 'a' : 'b'} with the server down`);
      assert.match(
        denied.reason,
        /the work board could not be read \(cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/board_\w+ \(ECONNREFUSED\); start the server or fix the host and port in the connection string\), so baton cannot tell whether .*handler\.ts is reserved/,
      );
      assert.match(denied.reason, /Fix: .*'baton doctor' checks the store/);
    }
  });
});
