/**
 * End-to-end with the real Codex CLI (pinned, installed on demand: ./pinned-cli.ts) against a
 * scripted Responses API stand-in: hooks installed by `baton install codex`, trust set up as
 * docs/hosts.md says, real payloads, tools really run, and the requests Codex sends show what
 * reached the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { CLIS, pinnedCli } from './pinned-cli.js';
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

/** The mock provider and the project trust of docs/hosts.md, in $CODEX_HOME/config.toml. */
function trust(codexHome: string, project: string, model: ResponsesModel): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${model.url}"`,
      'env_key = "MOCK_KEY"',
      'wire_api = "responses"',
      `[projects.${JSON.stringify(project)}]`,
      'trust_level = "trusted"',
      '',
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
