/**
 * The MCP server in process (the SDK's client over its in-memory transport, the same
 * createMcpServer `baton mcp` and `baton serve` run): each way an agent's arguments can be wrong
 * comes back as one line naming the argument, and each tool's refusals carry baton's error code,
 * with nothing written. mcp.test.ts runs the built CLI over stdio.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { initRun } from '../../src/run/fields.js';
import { Run } from '../../src/run/run-document.js';
import { tempTree } from '../helpers/fixtures.js';

const tree = tempTree({ 'project/.keep': '', 'home/.keep': '', 'outside/x.schema.json': '{}' });
const project = join(tree.dir, 'project');
const env = { HOME: join(tree.dir, 'home'), BATON_ROOT: project };
const clients: Client[] = [];

async function connect(options: { env?: Record<string, string>; writer?: string; name?: string } = {}) {
  const { server } = createMcpServer({
    cwd: project,
    env: options.env ?? env,
    version: '0.0.0-test',
    ...(options.writer ? { writer: options.writer } : {}),
  });
  const [client, served] = InMemoryTransport.createLinkedPair();
  await server.connect(served);
  const mcp = new Client({ name: options.name ?? 'unit client', version: '1.0.0' });
  await mcp.connect(client);
  clients.push(mcp);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  return {
    call,
    ok: async (name: string, args: Record<string, unknown>): Promise<unknown> => {
      const result = await call(name, args);
      assert.ok(!result.isError, `${name} failed: ${text(result)}`);
      try {
        return JSON.parse(text(result));
      } catch {
        return text(result);
      }
    },
    /** The call fails with `code`, one line; returns the message. */
    fails: async (name: string, args: Record<string, unknown>, code: string): Promise<string> => {
      const result = await call(name, args);
      assert.equal(result.isError, true, `${name} should fail: ${text(result)}`);
      const structured = result.structuredContent as { code: string; exit: number; message: string };
      assert.equal(structured.code, code, text(result));
      assert.equal(text(result), `${code}: ${structured.message}`);
      assert.equal(text(result).split('\n').length, 1);
      return structured.message;
    },
  };
}

let agent: Awaited<ReturnType<typeof connect>>;
before(async () => {
  agent = await connect();
});
after(async () => {
  for (const client of clients) await client.close();
  tree.cleanup();
});

describe('MCP tool arguments', () => {
  it('names the tool, the argument, what it wants and what it got', async () => {
    const { fails } = agent;
    assert.match(await fails('nope', {}, 'usage'), /^unknown tool 'nope'; the tools are work, init, get/);
    assert.equal(
      await fails('get', {}, 'usage'),
      "bad arguments for get: argument 'file' is missing (expected a string)",
    );
    assert.equal(
      await fails('work', {}, 'usage'),
      'bad arguments for work: argument \'action\' is missing (expected one of "add", "ready", "claim", "heartbeat", "done", "block", "release", "wait", "show")',
    );
    assert.equal(
      await fails('phase', { run: 'r' }, 'usage'),
      'bad arguments for phase: argument \'action\' is missing (expected one of "start", "done")',
    );
    assert.match(
      await fails('get', { file: 'a.json', colour: 1 }, 'usage'),
      /^bad arguments for get: unknown argument 'colour' \(the arguments are file, expr, args\)$/,
    );
    assert.equal(
      await fails('history', { file: 'a.json', limit: 'ten' }, 'usage'),
      'bad arguments for history: argument \'limit\' must be an integer, got "ten"',
    );
    assert.equal(
      await fails('history', { file: 'a.json', limit: 0 }, 'usage'),
      "bad arguments for history: argument 'limit' must be at least 1, got 0",
    );
    assert.equal(
      await fails('history', { file: 'a.json', limit: 5000 }, 'usage'),
      "bad arguments for history: argument 'limit' must be at most 1000, got 5000",
    );
    assert.equal(
      await fails('work', { action: 'finish' }, 'usage'),
      'bad arguments for work: argument \'action\' must be one of "add", "ready", "claim", "heartbeat", "done", "block", "release", "wait", "show", got "finish"',
    );
    assert.equal(
      await fails('goal', { action: 'now', text: '' }, 'usage'),
      'bad arguments for goal: argument \'text\' must be a non-empty string, got ""',
    );
    assert.equal(
      await fails('work', { action: 'wait', ids: ['a', 7] }, 'usage'),
      "bad arguments for work: argument 'ids[1]' must be a string, got 7",
    );
    assert.equal(
      await fails('set', { file: 'a.json', path: 'x', value: 1, writer: 'two words' }, 'usage'),
      'bad arguments for set: argument \'writer\' must be a string matching ^[A-Za-z0-9_.-]{1,40}$, got "two words"',
    );
    // A long value is shown cut, so the line stays short.
    assert.match(
      await fails('get', { file: 'x'.repeat(100), expr: 5 }, 'usage'),
      /argument 'expr' must be a string, got 5$/,
    );
    assert.match(await fails('history', { file: 'a.json', limit: 'y'.repeat(100) }, 'usage'), /got "y{36}\.\.\.$/);
    // Past what the words cover, Ajv's own words.
    assert.match(
      await fails('init', { file: 'a.json', values: { x: 1 }, force: 'yes' }, 'usage'),
      /'force' must be a boolean/,
    );
  });
});

describe('MCP document tools', () => {
  it('init, get, update, set and append, consume, history; each refusal with its code, nothing written', async () => {
    const { ok, fails } = agent;
    assert.deepEqual(await ok('init', { file: 'notes.json', values: { n: 1, list: [] } }), { rev: 1 });
    assert.equal(
      await fails('init', { file: 'notes.json' }, 'exists'),
      await fails('init', { file: 'notes.json' }, 'exists'),
    );
    assert.deepEqual(await ok('update', { file: 'notes.json', expr: '.n += $k', args: { k: 2 } }), { rev: 2 });
    assert.deepEqual(await ok('set', { file: 'notes.json', path: 'list', value: 'a', append: true }), { rev: 3 });
    assert.deepEqual(await ok('set', { file: 'notes.json', path: 'who', value: 'me', writer: 'impl-1' }), { rev: 4 });
    assert.deepEqual(await ok('get', { file: 'notes.json', expr: '.n' }), [3]);
    assert.deepEqual(await ok('consume', { file: 'notes.json', path: 'who' }), 'me');
    const history = (await ok('history', { file: 'notes.json', limit: 2 })) as { rev: number; writer: string }[];
    assert.deepEqual(
      history.map((entry) => entry.rev),
      [5, 4],
    );
    assert.equal(history[1]!.writer, 'mcp:unit-client/impl-1');
    const before = readFileSync(join(project, 'notes.json'), 'utf8');
    assert.deepEqual(await ok('get', { file: 'missing.json' }), []);
    await fails('get', { file: '../outside/x.json' }, 'unsafe_path');
    await fails('get', { file: join(tree.dir, 'outside', 'x.json') }, 'unsafe_path');
    await fails('update', { file: 'notes.json', expr: '.n +' }, 'jq_syntax');
    await fails('init', { file: 'other.json', schema: '../outside/x.schema.json' }, 'unsafe_path');
    await fails('init', { file: 'other.json', schema: 'no-such-schema' }, 'usage');
    assert.equal(readFileSync(join(project, 'notes.json'), 'utf8'), before);
  });

  it('records the writer the server was given, or BATON_WRITER, before the agent name', async () => {
    const named = await connect({ writer: 'orchestrator' });
    await named.ok('init', { file: 'w1.json', values: { a: 1 }, writer: 'sub' });
    const fromEnv = await connect({ env: { ...env, BATON_WRITER: 'env-writer' } });
    await fromEnv.ok('set', { file: 'w1.json', path: 'a', value: 2 });
    const history = (await agent.ok('history', { file: 'w1.json' })) as { writer: string }[];
    assert.deepEqual(
      history.map((entry) => entry.writer),
      ['env-writer', 'orchestrator/sub'],
    );
  });
});

describe('MCP work tool', () => {
  it('adds, claims, renews, finishes, blocks and releases, with the board refusing what it must', async () => {
    const { ok, fails } = agent;
    await fails('work', { action: 'show' }, 'not_found');
    assert.deepEqual(await ok('work', { action: 'ready' }), []);
    await fails('work', { action: 'add', title: 'no id' }, 'usage');
    await fails('work', { action: 'add', id: 'a' }, 'usage');
    assert.deepEqual(await ok('work', { action: 'add', id: 'a', title: 'A', paths: ['src/a/**'] }), { added: 'a' });
    await ok('work', { action: 'add', id: 'b', title: 'B', after: ['a'] });
    await ok('work', { action: 'add', id: 'c', title: 'C', fields: { owner: 'me' } });
    await fails('work', { action: 'add', id: 'd', title: 'D', paths: ['src/a/x.ts'] }, 'conflict');
    await fails('work', { action: 'add', id: 'e', title: 'E', after: ['zz'] }, 'not_found');
    await fails('work', { action: 'add', id: 'bad id', title: 'X' }, 'usage');
    assert.deepEqual(await ok('work', { action: 'ready' }), ['a', 'c']);

    const claim = (await ok('work', { action: 'claim', agent: 'w1', lease: 60 })) as { claimed: string; token: number };
    assert.equal(claim.claimed, 'a');
    assert.deepEqual(await ok('work', { action: 'claim', id: 'a', agent: 'w2' }), {
      claimed: null,
      why: ((await ok('work', { action: 'claim', id: 'a', agent: 'w2' })) as { why: string }).why,
    });
    await fails('work', { action: 'done', id: 'a', agent: 'w2' }, 'conflict');
    await fails('work', { action: 'heartbeat', agent: 'w1' }, 'usage');
    const renewed = (await ok('work', { action: 'heartbeat', id: 'a', agent: 'w1' })) as { agent: string };
    assert.equal(renewed.agent, 'w1');
    assert.deepEqual(await ok('work', { action: 'done', id: 'a', agent: 'w1' }), { done: 'a' });
    await fails('work', { action: 'done', id: 'a', agent: 'w1' }, 'conflict');

    await ok('work', { action: 'claim', id: 'b', agent: 'w1' });
    assert.deepEqual(await ok('work', { action: 'block', id: 'b', agent: 'w1', reason: 'needs a key' }), {
      blocked: 'b',
    });
    await ok('work', { action: 'claim', id: 'c' });
    assert.deepEqual(await ok('work', { action: 'release', id: 'c' }), { released: 'c' });
    const shown = (await ok('work', { action: 'show', id: 'b' })) as { status: string; reason: string };
    assert.deepEqual([shown.status, shown.reason], ['blocked', 'needs a key']);
    assert.equal(await ok('work', { action: 'show', id: 'zz' }), null);
    const board = (await ok('work', { action: 'show' })) as { items: Record<string, unknown> };
    assert.deepEqual(Object.keys(board.items), ['a', 'b', 'c']);
  });

  it('waits for all, any or at least N with the partial result at the timeout', async () => {
    const { ok, fails } = agent;
    const any = (await ok('work', { action: 'wait', ids: ['a', 'c'], mode: 'any', timeout: 0 })) as { met: boolean };
    assert.equal(any.met, true);
    const all = (await ok('work', { action: 'wait', ids: ['a', 'c'], timeout: 0 })) as {
      met: boolean;
      done: string[];
      pending: { id: string }[];
    };
    assert.deepEqual([all.met, all.done, all.pending.map((p) => p.id)], [false, ['a'], ['c']]);
    const two = (await ok('work', { action: 'wait', ids: ['a', 'c'], atLeast: 2, timeout: 0 })) as { met: boolean };
    assert.equal(two.met, false);
    await fails('work', { action: 'wait', ids: ['a'], atLeast: 2 }, 'usage');
    await fails('work', { action: 'wait', ids: [] }, 'usage');
    await fails('work', { action: 'wait', ids: ['nope'] }, 'not_found');
  });
});

describe('MCP run and goal tools', () => {
  it('starts a phase (agent needed), records it done with outputs and evidence, and gates it', async () => {
    const { ok, fails } = agent;
    mkdirSync(join(project, '.ai_log'), { recursive: true });
    await fails('phase', { action: 'start', run: 'r1', phase: '1-plan' }, 'usage');
    await fails('phase', { action: 'start', run: 'r1', phase: 'Bad Key', agent: 'p' }, 'usage');
    await fails('gate', { run: 'r1', phase: '1-plan' }, 'not_found');
    await initRun(new Run('r1', { cwd: project, env }));
    assert.deepEqual(await ok('phase', { action: 'start', run: 'r1', phase: '1-plan', agent: 'planner' }), {
      started: '1-plan',
    });
    const failing = (await ok('gate', { run: 'r1', phase: '1-plan' })) as { pass: boolean };
    assert.equal(failing.pass, false);
    writeFileSync(join(project, 'plan.md'), 'the plan\n');
    assert.match(
      await fails(
        'phase',
        { action: 'done', run: 'r1', phase: '1-plan', evidence: ['../outside/x.schema.json'] },
        'usage',
      ),
      /is outside the project/,
    );
    const done = (await ok('phase', {
      action: 'done',
      run: 'r1',
      phase: '1-plan',
      outputs: { summary: 'ok' },
      evidence: ['plan.md'],
      promote: true,
    })) as { done: string };
    assert.equal(done.done, '1-plan');
    const gate = (await ok('gate', { run: 'r1', phase: '1-plan' })) as { pass: boolean };
    assert.equal(gate.pass, true);
    const run = JSON.parse(readFileSync(join(project, '.ai_log', 'session-r1.json'), 'utf8')) as {
      summary: string;
      phases: Record<string, { gate: { result: string } }>;
    };
    assert.deepEqual([run.summary, run.phases['1-plan']!.gate.result], ['ok', 'pass']);
  });

  it('goal and lint: the arguments each action needs, no HOME, no active goal, a bad slug', async () => {
    const { ok, fails } = agent;
    await fails('goal', { action: 'now' }, 'usage');
    await fails('goal', { action: 'land' }, 'usage');
    await fails('lint', {}, 'not_found');
    await fails('lint', { goal: 'Not A Slug' }, 'usage');
    await fails('lint', { goal: 'missing-goal' }, 'not_found');
    const homeless = await connect({ env: { BATON_ROOT: project } });
    await homeless.fails('goal', { action: 'now', text: 'x' }, 'not_found');
    await homeless.fails('lint', {}, 'not_found');
    const state = join(tree.dir, 'home', '.claude', 'orchestrate', 'demo', 'state.md');
    mkdirSync(join(state, '..'), { recursive: true });
    writeFileSync(state, '# Goal\n\n## Now\n\n## Next\n- a step\n');
    const linted = (await ok('lint', { goal: 'demo', fix: true })) as {
      fixed: unknown[];
      findings: { code: string }[];
    };
    // The empty Now section is the fix the lint makes; nothing is left to find.
    assert.deepEqual(
      (linted.fixed as { code: string }[]).map((fix) => fix.code),
      ['now-empty'],
    );
    assert.deepEqual(linted.findings, []);
  });
});
