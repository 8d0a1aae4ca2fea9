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

/**
 * A throwaway cluster for one describe (its test stops the server). `database(name)` makes a
 * fresh database, migrated, and returns `machine()`: one more project folder on it, as another
 * machine would be.
 */
function boardOnPostgres() {
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
  return {
    async database(name: string): Promise<() => EneoProject> {
      const url = await cluster.createDatabase(name);
      const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
      assert.equal(migrate.code, 0, migrate.stderr);
      return () => {
        const p = eneoProject({ 'src/api/handler.ts': 'x' }, { store: url, project: name });
        projects.push(p);
        return p;
      };
    },
    stopServer(): void {
      cluster.stop();
      stopped = true;
    },
  };
}

/** `baton work` on a machine, as `agent` of SESSION when one is named. */
const work = (p: EneoProject, args: string[], agent?: string) =>
  baton(['work', ...args], {
    cwd: p.dir,
    env: { ...p.env, ...(agent ? { BATON_AGENT: agent, BATON_SESSION: SESSION } : {}) },
  });

describe('file reservations of a work board on PostgreSQL', () => {
  const board = boardOnPostgres();

  it("another agent's write to a claimed item's paths is denied naming the holder, the holder's allowed; SubagentStop gives the item back; with the server down every write fails closed naming the fix", async () => {
    const machine = await board.database('board');
    const a = machine();
    const b = machine();
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
    board.stopServer();
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

describe('a server that is down, on a machine that has or has not seen the board', () => {
  const board = boardOnPostgres();

  it('machine b, which saw the board on the store, denies every write; a fresh machine c, which never saw one, judges by its own files and says so; the marker cannot be written or removed by the agent', async () => {
    const machine = await board.database('marker');
    const [a, b, c] = [machine(), machine(), machine()];
    const added = work(a, ['add', 'api', '--title', 'API endpoint', '--paths', 'src/api/**']);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(existsSync(join(a.dir, '.baton/board-on-store')), "a's add records the board on the store");
    const claimed = work(a, ['claim', 'api'], A);
    assert.equal(claimed.code, 0, claimed.stderr);
    const call = (at: EneoProject, tool: string, input: Record<string, unknown>) =>
      at.hook('PreToolUse', { session_id: SESSION, agent_id: B, cwd: at.dir, tool_name: tool, tool_input: input });
    const write = (at: EneoProject) =>
      call(at, 'Write', { file_path: join(at.dir, 'src/api/handler.ts'), content: 'y' });

    // b's hook reads the board through the store (A's claim denies B) and records that it saw it.
    assert.equal(decision(write(b)).kind, 'deny');
    const marker = join(b.dir, '.baton/board-on-store');
    assert.ok(existsSync(marker), "b's hook records the board on the store");
    // The agent cannot lift the reservations by removing or replacing the marker.
    for (const [tool, input] of [
      ['Write', { file_path: marker, content: '' }],
      ['Bash', { command: 'rm -f .baton/board-on-store' }],
      ['Bash', { command: 'rm -rf .baton' }],
    ] as const) {
      const r = call(b, tool, input);
      assert.equal(decision(r).kind, 'deny', `${tool} ${JSON.stringify(input)}`);
      assert.match(decision(r).reason, /is baton state/);
    }
    assert.equal(existsSync(join(c.dir, '.baton/board-on-store')), false, 'c never read the board');

    board.stopServer();
    const onB = write(b);
    assert.equal(onB.code, 0, onB.stderr);
    assert.equal(decision(onB).kind, 'deny', 'b saw the board: a reservation does not lapse with the server');
    assert.match(decision(onB).reason, /the work board could not be read \(cannot connect to PostgreSQL/);
    const onC = write(c);
    assert.equal(onC.code, 0, onC.stderr);
    assert.equal(decision(onC).kind, 'allow', `c never saw a board: judged by its own files\n${onC.stdout}`);
    assert.match(
      (JSON.parse(onC.stdout) as { systemMessage?: string }).systemMessage ?? '',
      /the shared store could not be read \(cannot connect to PostgreSQL.*this hook judged by this machine's files, which may be stale/,
    );
  });
});
