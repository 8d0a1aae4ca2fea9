/**
 * End-to-end with the real Codex CLI (pinned, installed on demand: ./pinned-cli.ts) against a
 * scripted Responses API stand-in: hooks installed by `baton install codex`, trust set up as
 * docs/hosts.md says, real payloads, tools really run, and the requests Codex sends show what
 * reached the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, ROOT } from '../helpers/cli.js';
import { readBlocks } from '../docs/blocks.js';
import { tempTree } from '../helpers/fixtures.js';
import { CLIS, pinnedCli } from './pinned-cli.js';
import { packageInProject, projectBaton } from './project-package.js';
import { startResponsesModel, type ResponsesModel, type ResponsesTurn } from './responses-model.js';

const CODEX = pinnedCli(CLIS.codex);

/** A project with an eneo task in GREEN and an open wave of one agent, hooks from `baton install codex`. */
function codexProject() {
  const tree = tempTree({
    'project/baton.config.json': JSON.stringify({ profile: 'eneo' }),
    'project/tests/test_a.py': 'def test_a():\n    assert True\n',
    'project/src/app.py': 'a = 1\n',
  });
  const project = join(tree.dir, 'project');
  const codexHome = join(tree.dir, 'codex-home');
  mkdirSync(codexHome);
  spawnSync('git', ['init', '-q'], { cwd: project });
  const task = '.claude/state/current-task.json';
  const run = (...args: string[]) => {
    const result = baton(args, { cwd: project });
    assert.equal(result.code, 0, `baton ${args.join(' ')}: ${result.stderr}`);
  };
  // Before GREEN: in a phase with write rules baton install refuses to touch the hooks.
  run('install', 'codex');
  run('init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast');
  run('set', task, 'tdd_phase', 'GREEN');
  run('set', task, 'phase', '1', '--json');
  run('set', task, 'phase_total', '2', '--json');
  run('task', 'wave-start', '1', '1');
  return { ...tree, project, codexHome };
}

function codexEnv(home: string, codexHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the developer's account or of an enclosing agent session leaks in.
  for (const [key, value] of Object.entries(process.env))
    if (!/^(CODEX_|OPENAI_|CLAUDE|ANTHROPIC_|BATON_|NODE_EXTRA_CA_CERTS$)/.test(key)) env[key] = value;
  // baton's hook debug log goes to $TMPDIR/baton-<uid>/: inside the test's folder.
  const tmp = join(home, '.tmp');
  mkdirSync(tmp, { recursive: true });
  return { ...env, HOME: home, TMPDIR: tmp, CODEX_HOME: codexHome, MOCK_KEY: 'sk-test' };
}

/** The config.toml blocks of docs/hosts.md, word for word: the project trust and the subagents' feature. */
const DOC_TOML = readBlocks(join(ROOT, 'docs', 'hosts.md'))
  .filter((block) => block.lang === 'toml')
  .map((block) => block.code);
const docToml = (key: string): string => {
  const block = DOC_TOML.find((code) => code.includes(key));
  assert.ok(block, `docs/hosts.md has a toml block with ${key}`);
  return block;
};

/**
 * $CODEX_HOME/config.toml: the mock provider, then the project trust docs/hosts.md gives (its
 * placeholder path replaced by the project's), and its `[features]` block when `subagents` is set.
 */
function trust(codexHome: string, project: string, model: ResponsesModel, subagents = false, top: string[] = []): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      ...top,
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${model.url}"`,
      'env_key = "MOCK_KEY"',
      'wire_api = "responses"',
      docToml('trust_level').replace('"/abs/path/to/project"', JSON.stringify(project)),
      ...(subagents ? [docToml('[features]')] : []),
    ].join('\n'),
  );
}

function runCodex(cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      CODEX,
      ['exec', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', prompt],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The output Codex sent back to the model for each call id. */
function outputs(model: ResponsesModel): Map<string, string> {
  const map = new Map<string, string>();
  for (const body of model.turns)
    for (const entry of body.input ?? [])
      if (/_output$/.test(entry?.type ?? ''))
        map.set(entry.call_id, typeof entry.output === 'string' ? entry.output : JSON.stringify(entry.output));
  return map;
}

test('codex: context reaches the model, GREEN test writes by shell and apply_patch denied with the reason, a src patch lands, the wave barrier holds Stop', async (t) => {
  const p = codexProject();
  t.after(p.cleanup);
  const script: ResponsesTurn[] = [
    { call: 'exec_command', arguments: { cmd: 'echo x >> tests/test_a.py' } },
    {
      custom: 'apply_patch',
      input:
        '*** Begin Patch\n*** Update File: tests/test_a.py\n@@\n-    assert True\n+    assert False\n*** End Patch\n',
    },
    { custom: 'apply_patch', input: '*** Begin Patch\n*** Add File: src/new.py\n+x = 1\n*** End Patch\n' },
    { text: 'All done.' },
  ];
  const model = await startResponsesModel(script);
  t.after(() => model.close());
  trust(p.codexHome, p.project, model);
  const run = await runCodex(p.project, codexEnv(join(p.dir, 'home'), p.codexHome), 'implement the feature');
  assert.equal(run.code, 0, run.out);

  const first = JSON.stringify(model.turns[0]?.input);
  assert.match(first, /Resume: demo · Phase 1\/2 · GREEN/, 'SessionStart context reaches the first request');

  const results = outputs(model);
  assert.match(
    results.get('call_0') ?? '',
    /blocked by PreToolUse hook[\s\S]*GREEN/,
    'shell write denied, reason shown',
  );
  assert.match(results.get('call_1') ?? '', /blocked by PreToolUse hook[\s\S]*GREEN/, 'apply_patch to tests denied');
  assert.equal(readFileSync(join(p.project, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
  assert.ok(existsSync(join(p.project, 'src/new.py')), 'the src patch lands');

  const afterStop = model.turns
    .map((body) => JSON.stringify(body.input))
    .find((text) => text.includes('Wave 1 is not complete'));
  assert.ok(afterStop, 'the Stop block (the open wave) reaches the model as a hook prompt');
});

test('codex: a spawn_agent subagent is counted by the wave barrier; the open wave holds Stop until the subagent reports DONE', async (t) => {
  const p = codexProject();
  t.after(p.cleanup);
  const wave = 'Wave 1 is not complete';
  const script: ResponsesTurn[] = [
    {
      call: 'spawn_agent',
      namespace: 'collaboration',
      arguments: { task_name: 'helper', message: 'Add src/b.py', fork_turns: 'none' },
    },
    // Stops while the subagent has not answered (the stand-in holds it until this Stop is blocked).
    { text: 'Finished.' },
    { call: 'wait_agent', namespace: 'collaboration', arguments: { timeout_ms: 600000 } },
    { text: 'All done.' },
  ];
  const subagent: ResponsesTurn[] = [
    { custom: 'apply_patch', input: '*** Begin Patch\n*** Add File: src/b.py\n+b = 2\n*** End Patch\n' },
    { text: 'DONE|src/b.py' },
  ];
  const model = await startResponsesModel(script, { subagent, holdSubagentUntil: wave });
  t.after(() => model.close());
  trust(p.codexHome, p.project, model, true);
  const run = await runCodex(p.project, codexEnv(join(p.dir, 'home'), p.codexHome), 'implement the feature');
  assert.equal(run.code, 0, run.out);

  const texts = model.turns.map((body) => JSON.stringify(body.input));
  const blocked = texts.findIndex((text) => text.includes(wave) && !/Task name: \/root\//.test(text));
  assert.ok(blocked >= 0, 'the Stop before the subagent answered was blocked by the open wave');
  assert.match(texts[blocked]!, /0\/1 agents reported DONE/);
  assert.ok(existsSync(join(p.project, 'src/b.py')), "the subagent's src patch lands");
  const counted = JSON.parse(readFileSync(join(p.project, '.claude/state/wave.json'), 'utf8'));
  assert.equal(counted.done, 1);
  assert.equal(counted.status, 'ready-for-next-wave');
  assert.deepEqual(counted.completed_artifacts, ['src/b.py']);
  assert.equal(counted.seen_agents.length, 1, "the subagent's agent_id, once");
  const task = JSON.parse(readFileSync(join(p.project, '.claude/state/current-task.json'), 'utf8'));
  assert.equal(task.wave_status['1'], 'done');
  // The prompt audit holds the user's prompt only, not the subagent's task.
  const audit = readFileSync(join(p.project, '.claude/stats/prompts.jsonl'), 'utf8').trimEnd().split('\n');
  assert.deepEqual(
    audit.map((line) => JSON.parse(line).len),
    ['implement the feature'.length],
  );
});

test('codex: a project-scope install carries over to another clone (installed in one folder, copied to another, run from a subfolder there)', async (t) => {
  const tree = tempTree({
    'a/baton.config.json': JSON.stringify({ profile: 'eneo' }),
    'a/tests/test_a.py': 'def test_a():\n    assert True\n',
    'a/src/app.py': 'a = 1\n',
  });
  t.after(tree.cleanup);
  const a = join(tree.dir, 'a');
  spawnSync('git', ['init', '-q'], { cwd: a });
  packageInProject(a);
  const installed = projectBaton(a, ['install', 'codex']);
  assert.equal(installed.code, 0, installed.stderr);
  const hooks = readFileSync(join(a, '.codex', 'hooks.json'), 'utf8');
  assert.ok(!hooks.includes(realpathSync(tree.dir)) && !hooks.includes(tree.dir), `no path of this machine: ${hooks}`);
  const task = '.claude/state/current-task.json';
  for (const args of [
    ['init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
    ['set', task, 'tdd_phase', 'GREEN'],
  ]) {
    const result = baton(args, { cwd: a });
    assert.equal(result.code, 0, result.stderr);
  }
  // The clone: the whole folder elsewhere, the original gone.
  const b = join(tree.dir, 'elsewhere', 'b');
  cpSync(a, b, { recursive: true });
  rmSync(a, { recursive: true, force: true });
  const codexHome = join(tree.dir, 'codex-home');
  mkdirSync(codexHome);
  const model = await startResponsesModel([
    { call: 'exec_command', arguments: { cmd: 'echo x >> ../tests/test_a.py' } },
    { text: 'Done.' },
  ]);
  t.after(() => model.close());
  trust(codexHome, b, model);
  const run = await runCodex(join(b, 'src'), codexEnv(join(tree.dir, 'home'), codexHome), 'go on');
  assert.equal(run.code, 0, run.out);
  assert.match(JSON.stringify(model.turns[0]?.input), /Resume: demo/, 'SessionStart ran from the clone');
  assert.match(outputs(model).get('call_0') ?? '', /blocked by PreToolUse hook[\s\S]*GREEN/, 'the gate ran');
  assert.equal(readFileSync(join(b, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
});

test("codex: in GREEN a shell write the parser cannot see (a script file) runs in baton's OS sandbox and cannot touch tests; a src write by script lands", async (t) => {
  const p = codexProject();
  t.after(p.cleanup);
  writeFileSync(join(p.project, 'to-tests.sh'), 'echo x >> tests/test_a.py\n');
  writeFileSync(join(p.project, 'to-src.sh'), 'echo "c = 3" > src/c.py\n');
  const model = await startResponsesModel([
    { call: 'exec_command', arguments: { cmd: 'sh to-tests.sh' } },
    { call: 'exec_command', arguments: { cmd: 'sh to-src.sh' } },
    { text: 'Done.' },
  ]);
  t.after(() => model.close());
  trust(p.codexHome, p.project, model);
  const run = await runCodex(p.project, codexEnv(join(p.dir, 'home'), p.codexHome), 'go on');
  assert.equal(run.code, 0, run.out);
  const results = outputs(model);
  assert.match(results.get('call_0') ?? '', /Read-only file system/, 'the write failed inside the sandbox');
  assert.equal(readFileSync(join(p.project, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
  assert.equal(readFileSync(join(p.project, 'src/c.py'), 'utf8'), 'c = 3\n');
});

test('codex: a compaction (model_auto_compact_token_limit reached) saves one pre-compact snapshot, and the context is in the first request after it', async (t) => {
  const p = codexProject();
  t.after(p.cleanup);
  const history = () =>
    baton(['history', '.claude/state/current-task.json', '--json'], { cwd: p.project })
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line).writer as string);
  const before = history().filter((writer) => writer === 'pre-compact').length;
  // The first answer reports 5,000 input tokens, over the limit: Codex compacts once before the next request.
  const model = await startResponsesModel([{ call: 'exec_command', arguments: { cmd: 'ls src' } }, { text: 'Done.' }], {
    firstInputTokens: 5000,
  });
  t.after(() => model.close());
  trust(p.codexHome, p.project, model, false, ['model_auto_compact_token_limit = 1000']);
  const run = await runCodex(p.project, codexEnv(join(p.dir, 'home'), p.codexHome), 'go on');
  assert.equal(run.code, 0, run.out);
  const texts = model.turns.map((body) => JSON.stringify(body.input));
  const after = texts.findIndex((text) => text.includes('summary produced by the other language model'));
  assert.ok(after > 0, 'Codex compacted');
  assert.match(texts[after]!, /Resume: demo/, 'the context is there after compaction');
  assert.equal(history().filter((writer) => writer === 'pre-compact').length, before + 1, 'one snapshot');
});
