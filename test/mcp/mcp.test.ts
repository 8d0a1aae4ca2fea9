/**
 * `baton mcp` as an agent host runs it: the SDK's own client spawns the built CLI over stdio in a
 * temp project. Every tool is called for real; failures must come back as tool errors carrying
 * baton's error code, with the document on disk unchanged.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { baton, BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import { TOOL_NAMES } from './tool-names.js';

const tree = tempTree({
  'project/owned.schema.json': OWNED_SCHEMA,
  'home/.keep': '',
  'outside/secret.json': '{"s":1}',
});
const project = join(tree.dir, 'project');
const env = cleanEnv({ HOME: join(tree.dir, 'home'), BATON_ROOT: project }) as Record<string, string>;
const client = new Client({ name: 'test-client', version: '1.0.0' });

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
async function ok(name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await call(name, args);
  assert.ok(!result.isError, `${name} failed: ${text(result)}`);
  const body = text(result);
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
async function fails(name: string, args: Record<string, unknown>, code: string): Promise<string> {
  const result = await call(name, args);
  assert.equal(result.isError, true, `${name} should fail: ${text(result)}`);
  assert.equal((result.structuredContent as { code: string }).code, code, text(result));
  assert.ok(text(result).startsWith(`${code}: `));
  assert.equal(text(result).split('\n').length, 1, 'one line');
  return text(result);
}
const onDisk = (file: string) => readFileSync(join(project, file), 'utf8');

async function connect(name: string, args: readonly string[], extra: Record<string, string> = {}): Promise<Client> {
  const other = new Client({ name, version: '1.0.0' });
  await other.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      cwd: project,
      env: { ...env, ...extra },
      stderr: 'pipe',
    }),
  );
  return other;
}

before(async () => {
  assert.equal(baton(['init', 'notes.json', '--argjson', 'n', '1'], { cwd: project, env }).code, 0);
  assert.equal(
    baton(['init', 'owned.json', '--schema', 'owned.schema.json', '--as', 'orchestrator', '--arg', 'phase', 'RED'], {
      cwd: project,
      env,
    }).code,
    0,
  );
  assert.equal(baton(['run', 'init', 'r1'], { cwd: project, env }).code, 0);
  assert.equal(baton(['goal', 'start', 'demo-goal', 'Ship the MCP server'], { cwd: project, env }).code, 0);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: project, env, stderr: 'pipe' }),
  );
});
after(async () => {
  await client.close();
  tree.cleanup();
});

describe('baton mcp', () => {
  it('lists the tools, each with a short description and a closed input schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOL_NAMES);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length <= 140, `${tool.name}: description under 140 characters`);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    }
    // 6,000 bytes held the document, run and goal tools; the work board's one tool adds ~900.
    assert.ok(
      JSON.stringify(tools).length < 7000,
      `all schemas together stay small (${JSON.stringify(tools).length} bytes)`,
    );
  });

  it('get, update with named args, set, append, consume and history work on a document, recording the client as writer', async () => {
    assert.deepEqual(await ok('get', { file: 'notes.json', expr: '.n' }), [1]);
    assert.deepEqual(
      await ok('update', { file: 'notes.json', expr: '.n += $k | .who = $w', args: { k: 41, w: 'x' } }),
      { rev: 2 },
    );
    assert.deepEqual(JSON.parse(onDisk('notes.json')), { n: 42, who: 'x' });
    await ok('set', { file: 'notes.json', path: 'hint', value: 'next: tests' });
    await ok('set', { file: 'notes.json', path: 'log', value: [] });
    await ok('set', { file: 'notes.json', path: 'log', value: { a: 1 }, append: true });
    assert.equal(await ok('consume', { file: 'notes.json', path: 'hint' }), 'next: tests');
    assert.deepEqual(JSON.parse(onDisk('notes.json')), { n: 42, who: 'x', hint: null, log: [{ a: 1 }] });
    const history = (await ok('history', { file: 'notes.json', limit: 2 })) as { rev: number; writer: string }[];
    assert.deepEqual(
      history.map((entry) => entry.rev),
      [6, 5],
    );
    assert.equal(history[0]?.writer, 'mcp:test-client');
  });

  it('work: add, claim, a lost claim, done only by the holder, and a wait that is met', async () => {
    await ok('work', { action: 'add', id: 'w1', title: 'first', paths: ['src/w1.ts'] });
    await fails('work', { action: 'add', id: 'w2', title: 'second', paths: ['src/*.ts'] }, 'conflict');
    const claimed = (await ok('work', { action: 'claim', agent: 'a1', lease: 60 })) as {
      claimed: string;
      token: number;
    };
    assert.equal(claimed.claimed, 'w1');
    assert.deepEqual(await ok('work', { action: 'claim', id: 'w1', agent: 'a2' }), {
      claimed: null,
      why: `item w1 is held by a1 until ${(JSON.parse(onDisk('.claude/state/board.json')) as { items: { w1: { claim: { expires: string } } } }).items.w1.claim.expires}`,
    });
    await fails('work', { action: 'done', id: 'w1', agent: 'a2' }, 'conflict');
    assert.deepEqual(await ok('work', { action: 'done', id: 'w1', agent: 'a1' }), { done: 'w1' });
    const met = (await ok('work', { action: 'wait', ids: ['w1'], mode: 'all', timeout: 1 })) as { met: boolean };
    assert.equal(met.met, true);
  });

  it('phase start/done and gate drive a run; the gate reads evidence files from the project', async () => {
    assert.deepEqual(await ok('phase', { action: 'start', run: 'r1', phase: '1-plan', agent: 'planner' }), {
      started: '1-plan',
    });
    mkdirSync(join(project, '.ai_log'), { recursive: true });
    writeFileSync(join(project, '.ai_log', 'plan.md'), '# plan\n');
    assert.deepEqual(
      await ok('phase', {
        action: 'done',
        run: 'r1',
        phase: '1-plan',
        outputs: { plan: '.ai_log/plan.md', steps: 3 },
        evidence: ['.ai_log/plan.md'],
      }),
      { done: '1-plan' },
    );
    const gate = (await ok('gate', { run: 'r1', phase: '1-plan' })) as { pass: boolean };
    assert.equal(gate.pass, true);
    const run = JSON.parse(onDisk('.ai_log/session-r1.json'));
    assert.equal(run.phases['1-plan'].status, 'done');
    assert.deepEqual(run.phases['1-plan'].outputs, { plan: '.ai_log/plan.md', steps: 3 });
    assert.equal(run.phases['1-plan'].gate.result, 'pass');
    await fails('phase', { action: 'done', run: 'r1', phase: '2-impl', evidence: ['../outside/secret.json'] }, 'usage');
    // The CLI's phase-done checks hold here too: a promoted output may not replace the run's own
    // fields, and an `also` list needs evidence; neither writes anything.
    const before = onDisk('.ai_log/session-r1.json');
    assert.match(
      await fails(
        'phase',
        { action: 'done', run: 'r1', phase: '2-impl', outputs: { phases: 'x' }, promote: true },
        'usage',
      ),
      /promote cannot set the run's own field 'phases'/,
    );
    assert.match(
      await fails('phase', { action: 'done', run: 'r1', phase: '2-impl', also: 'phase-2-evidence' }, 'usage'),
      /needs evidence/,
    );
    assert.equal(onDisk('.ai_log/session-r1.json'), before);
  });

  it('goal now/land edit the active goal and lint reports on it', async () => {
    assert.match(
      (await ok('goal', { action: 'now', text: 'impl: build the server' })) as string,
      /- impl: build the server/,
    );
    const landed = (await ok('goal', { action: 'land', label: 'impl', text: 'server built' })) as string;
    assert.doesNotMatch(landed, /impl: build the server/);
    const state = readFileSync(join(tree.dir, 'home', '.claude', 'orchestrate', 'demo-goal', 'state.md'), 'utf8');
    assert.match(state, /server built/);
    const lint = (await ok('lint', {})) as { file: string; findings: unknown[] };
    assert.match(lint.file, /demo-goal[/\\]state\.md$/);
    assert.ok(Array.isArray(lint.findings));
    await fails('goal', { action: 'land' }, 'usage');
    await fails('lint', { goal: '../x' }, 'usage');
  });

  it('a goal refusal carries its own code: a state.md without its Now section is invalid, and nothing is written', async () => {
    const file = join(tree.dir, 'home', '.claude', 'orchestrate', 'demo-goal', 'state.md');
    const kept = readFileSync(file, 'utf8');
    const broken = kept.replace(/^## Now$/m, '## Later');
    assert.notEqual(broken, kept);
    writeFileSync(file, broken);
    try {
      assert.match(await fails('goal', { action: 'now', text: 'x' }, 'invalid'), /has no '## Now' line/);
      assert.equal(readFileSync(file, 'utf8'), broken);
    } finally {
      writeFileSync(file, kept);
    }
  });

  it('bad arguments are usage errors naming the problem; a bad jq program is a jq_syntax error; nothing is written', async () => {
    const before = onDisk('notes.json');
    // Each names the argument, what was expected and what was given.
    assert.equal(
      await fails('update', { file: 'notes.json' }, 'usage'),
      "usage: bad arguments for update: argument 'expr' is missing (expected a string)",
    );
    assert.equal(
      await fails('get', { file: 'notes.json', extra: 1 }, 'usage'),
      "usage: bad arguments for get: unknown argument 'extra' (the arguments are file, expr, args)",
    );
    assert.equal(
      await fails('history', { file: 'notes.json', limit: 'ten' }, 'usage'),
      'usage: bad arguments for history: argument \'limit\' must be an integer, got "ten"',
    );
    assert.equal(
      await fails('history', { file: 'notes.json', limit: 5000 }, 'usage'),
      "usage: bad arguments for history: argument 'limit' must be at most 1000, got 5000",
    );
    assert.equal(
      await fails('phase', { action: 'skip', run: 'r1', phase: '1-plan' }, 'usage'),
      'usage: bad arguments for phase: argument \'action\' must be one of "start", "done", got "skip"',
    );
    assert.equal(
      await fails('phase', { action: 'done', run: 'r1', phase: '1-plan', evidence: ['a.md', 3] }, 'usage'),
      "usage: bad arguments for phase: argument 'evidence[1]' must be a string, got 3",
    );
    assert.equal(
      await fails('set', { file: 'notes.json', path: 'n', value: 2, writer: 'two words' }, 'usage'),
      'usage: bad arguments for set: argument \'writer\' must be a string matching ^[A-Za-z0-9_.-]{1,40}$, got "two words"',
    );
    await fails('nope', {}, 'usage');
    await fails('update', { file: 'notes.json', expr: '.n +' }, 'jq_syntax');
    await fails('update', { file: 'notes.json', expr: '.n = $missing' }, 'jq_syntax');
    assert.equal(onDisk('notes.json'), before);
  });

  it('init creates a document as baton init does, and a missing document names the init tool', async () => {
    const missing = await fails('update', { file: 'fresh.json', expr: '.n = 1' }, 'not_found');
    assert.equal(missing, 'not_found: fresh.json does not exist; create it with the init tool (file "fresh.json")');
    assert.deepEqual(await ok('init', { file: 'fresh.json', values: { n: 1 } }), { rev: 1 });
    assert.deepEqual(JSON.parse(onDisk('fresh.json')), { n: 1 });
    assert.deepEqual(await ok('update', { file: 'fresh.json', expr: '.n += 1' }), { rev: 2 });
    assert.match(await fails('init', { file: 'fresh.json' }, 'exists'), /already exists; pass --force/);
    assert.deepEqual(await ok('init', { file: 'fresh.json', values: { n: 9 }, force: true }), { rev: 3 });
    // The same schema checks: a built-in schema's template and rules, a refused value writes nothing.
    await ok('init', { file: 'task.json', schema: 'eneo-task', values: { slug: 'demo', lane: 'deep', bracket: 4 } });
    assert.equal(JSON.parse(onDisk('task.json')).slug, 'demo');
    await fails(
      'init',
      { file: 'bad-task.json', schema: 'eneo-task', values: { slug: 'x', bracket: 'four' } },
      'invalid',
    );
    assert.equal(existsSync(join(project, 'bad-task.json')), false);
    // The same confinement: the document, and a schema file, inside the project (symlinks resolved).
    symlinkSync(join(tree.dir, 'outside'), join(project, 'schema-link'));
    await fails('init', { file: '../outside/new.json' }, 'unsafe_path');
    await fails('init', { file: 'x.json', schema: '../outside/secret.json' }, 'unsafe_path');
    await fails('init', { file: 'x.json', schema: join(tree.dir, 'outside', 'secret.json') }, 'unsafe_path');
    await fails('init', { file: 'x.json', schema: 'schema-link/secret.json' }, 'unsafe_path');
    assert.equal(existsSync(join(project, 'x.json')), false);
    assert.equal(existsSync(join(tree.dir, 'outside', 'new.json')), false);
    // and the schema's owner rules: only the orchestrator may create an owned document.
    await fails('init', { file: 'owned2.json', schema: 'owned.schema.json', values: { phase: 'RED' } }, 'forbidden');
    assert.equal(existsSync(join(project, 'owned2.json')), false);
  });

  it('a write to a field the MCP writer does not own is refused with forbidden, the document unchanged', async () => {
    const before = onDisk('owned.json');
    await fails('set', { file: 'owned.json', path: 'phase', value: 'GREEN' }, 'forbidden');
    await fails('update', { file: 'owned.json', expr: '.phase = "GREEN"' }, 'forbidden');
    assert.equal(onDisk('owned.json'), before);
  });

  it("each agent on one connection writes as its own writer, under the server's, and cannot become another", async () => {
    writeFileSync(
      join(project, 'agents.schema.json'),
      JSON.stringify({
        type: 'object',
        'x-baton': { owners: { plan: ['mcp:test-client/planner'], code: ['mcp:test-client/implementer'] } },
      }),
    );
    assert.equal(baton(['init', 'work.json', '--schema', 'agents.schema.json'], { cwd: project, env }).code, 0);
    await ok('set', { file: 'work.json', path: 'plan', value: 'p1', writer: 'planner' });
    await ok('update', { file: 'work.json', expr: '.code = "c1"', writer: 'implementer' });
    const history = (await ok('history', { file: 'work.json', limit: 2 })) as { writer: string }[];
    assert.deepEqual(
      history.map((entry) => entry.writer),
      ['mcp:test-client/implementer', 'mcp:test-client/planner'],
    );
    // Another agent, no agent at all, and a name that tries to leave the server's writer.
    await fails('set', { file: 'work.json', path: 'plan', value: 'x', writer: 'implementer' }, 'forbidden');
    await fails('set', { file: 'work.json', path: 'plan', value: 'x' }, 'forbidden');
    await fails('set', { file: 'owned.json', path: 'phase', value: 'GREEN', writer: 'orchestrator' }, 'forbidden');
    for (const name of ['../planner', 'a b', '', 'x'.repeat(41)])
      assert.match(
        await fails('set', { file: 'work.json', path: 'plan', value: 'x', writer: name }, 'usage'),
        /argument 'writer'/,
      );
    assert.deepEqual(JSON.parse(onDisk('work.json')), { plan: 'p1', code: 'c1' });
  });

  it("a client naming itself after an owner is still refused; the server's --as or BATON_WRITER is the writer", async () => {
    const before = onDisk('owned.json');
    const impostor = await connect('orchestrator', []);
    try {
      const result = (await impostor.callTool({
        name: 'set',
        arguments: { file: 'owned.json', path: 'phase', value: 'GREEN' },
      })) as CallToolResult;
      assert.equal((result.structuredContent as { code: string }).code, 'forbidden', text(result));
      assert.equal(onDisk('owned.json'), before);
    } finally {
      await impostor.close();
    }
    for (const [args, extra] of [
      [['--as', 'orchestrator'], {}],
      [[], { BATON_WRITER: 'orchestrator' }],
    ] as const) {
      const owner = await connect('any', args, extra);
      try {
        const result = (await owner.callTool({
          name: 'set',
          arguments: { file: 'owned.json', path: 'phase', value: 'GREEN' },
        })) as CallToolResult;
        assert.ok(!result.isError, text(result));
      } finally {
        await owner.close();
      }
      assert.equal(JSON.parse(onDisk('owned.json')).phase, 'GREEN');
      assert.equal(baton(['set', 'owned.json', 'phase', 'RED', '--as', 'orchestrator'], { cwd: project, env }).code, 0);
    }
  });

  it("with the sandbox's identity file, a server run --as another writer is refused owned fields, naming the agent; unowned ones work", async () => {
    const identity = join(project, '.baton/sandbox/identity.json');
    mkdirSync(join(project, '.baton/sandbox'), { recursive: true });
    writeFileSync(identity, '{"agent": "a1", "session": "s1", "host": "claude"}');
    const claimed = await connect('any', ['--as', 'orchestrator']);
    try {
      const before = onDisk('owned.json');
      const result = (await claimed.callTool({
        name: 'set',
        arguments: { file: 'owned.json', path: 'phase', value: 'GREEN' },
      })) as CallToolResult;
      assert.equal((result.structuredContent as { code: string }).code, 'forbidden', text(result));
      assert.match(text(result), /runs as agent a1/);
      assert.equal(onDisk('owned.json'), before);
      const unowned = (await claimed.callTool({
        name: 'set',
        arguments: { file: 'owned.json', path: 'notes', value: [] },
      })) as CallToolResult;
      assert.ok(!unowned.isError, text(unowned));
    } finally {
      await claimed.close();
      writeFileSync(identity, '');
    }
  });

  it('a sidecar is never a document: set and update of .baton/ metadata are refused, nothing changes', async () => {
    const meta = '.baton/owned.json.meta.json';
    const before = onDisk(meta);
    await fails('set', { file: meta, path: 'schema', value: 'any' }, 'unsafe_path');
    await fails('update', { file: meta, expr: 'del(.schema)' }, 'unsafe_path');
    assert.equal(onDisk(meta), before);
  });

  it('a document path outside the project is refused, by .., absolute path or symlink', async () => {
    symlinkSync(join(tree.dir, 'outside'), join(project, 'link'));
    await fails('get', { file: '../outside/secret.json' }, 'unsafe_path');
    await fails('get', { file: join(tree.dir, 'outside', 'secret.json') }, 'unsafe_path');
    await fails('set', { file: join(tree.dir, 'outside', 'secret.json'), path: 's', value: 2 }, 'unsafe_path');
    await fails('get', { file: 'link/secret.json' }, 'unsafe_path');
    await fails('update', { file: 'link/secret.json', expr: '.s = 2' }, 'unsafe_path');
    assert.equal(readFileSync(join(tree.dir, 'outside', 'secret.json'), 'utf8'), '{"s":1}');
  });
});

describe("the plugin's .mcp.json", () => {
  it('starts the bundled server from a copy of the plugin outside the repo (as in the plugin cache)', async () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'plugin', '.mcp.json'), 'utf8')).mcpServers.baton as {
      command: string;
      args: string[];
    };
    const copy = tempTree();
    cpSync(join(ROOT, 'plugin'), join(copy.dir, 'plugin'), { recursive: true });
    const plugin = new Client({ name: 'plugin-check', version: '1.0.0' });
    try {
      const args = config.args.map((arg) => arg.replaceAll('${CLAUDE_PLUGIN_ROOT}', join(copy.dir, 'plugin')));
      await plugin.connect(
        new StdioClientTransport({
          command: config.command === 'node' ? process.execPath : config.command,
          args,
          cwd: project,
          env,
          stderr: 'pipe',
        }),
      );
      assert.deepEqual(
        await plugin
          .callTool({ name: 'get', arguments: { file: 'notes.json', expr: '.n' } })
          .then((r) => JSON.parse(text(r as CallToolResult))),
        [42],
      );
    } finally {
      await plugin.close();
      copy.cleanup();
    }
  });
});
