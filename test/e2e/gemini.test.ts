/**
 * End-to-end with the real Gemini CLI (pinned, installed on demand: ./pinned-cli.ts) against a
 * scripted generateContent stand-in: hooks installed by `baton install gemini`, folder trust and
 * auth set up as docs/hosts.md says, real payloads, tools really run, and the requests Gemini
 * sends show what reached the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { CLIS, pinnedCli } from './pinned-cli.js';
import { packageInProject, projectBaton } from './project-package.js';
import { startGeminiModel, type GeminiModel, type GeminiTurn } from './gemini-model.js';

const GEMINI = pinnedCli(CLIS.gemini);

/** The user settings docs/hosts.md gives for headless auth, word for word. */
const DOC_AUTH =
  /`(\{"security": \{"auth": [^`]*\})`/.exec(readFileSync(join(ROOT, 'docs', 'hosts.md'), 'utf8'))?.[1] ?? '';
assert.ok(DOC_AUTH, 'docs/hosts.md gives the auth settings');

/** A project with an eneo task in GREEN and an open wave of one agent, hooks from `baton install gemini`. */
function geminiProject() {
  const tree = tempTree({
    'project/baton.config.json': JSON.stringify({ profile: 'eneo' }),
    'project/tests/test_a.py': 'def test_a():\n    assert True\n',
    'project/src/app.py': 'a = 1\n',
    // Headless runs need a chosen auth type (docs/hosts.md): without it Gemini exits 41.
    'home/.gemini/settings.json': DOC_AUTH,
  });
  const project = join(tree.dir, 'project');
  spawnSync('git', ['init', '-q'], { cwd: project });
  const task = '.claude/state/current-task.json';
  const run = (...args: string[]) => {
    const result = baton(args, { cwd: project });
    assert.equal(result.code, 0, `baton ${args.join(' ')}: ${result.stderr}`);
  };
  // Before GREEN: in a phase with write rules baton install refuses to touch the hooks.
  run('install', 'gemini');
  run('init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast');
  run('set', task, 'tdd_phase', 'GREEN');
  run('set', task, 'phase', '1', '--json');
  run('set', task, 'phase_total', '2', '--json');
  run('task', 'wave-start', '1', '1');
  return { ...tree, project, home: join(tree.dir, 'home') };
}

function geminiEnv(home: string, model: GeminiModel): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the developer's account or of an enclosing agent session leaks in.
  for (const [key, value] of Object.entries(process.env))
    if (!/^(GEMINI_|GOOGLE_|CLAUDE|ANTHROPIC_|BATON_|NODE_EXTRA_CA_CERTS$)/.test(key)) env[key] = value;
  // baton's hook debug log goes to $TMPDIR/baton-<uid>/: inside the test's folder.
  const tmp = join(home, '.tmp');
  mkdirSync(tmp, { recursive: true });
  return {
    ...env,
    HOME: home,
    TMPDIR: tmp,
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_API_KEY: 'test-key',
    // Folder trust for a headless run (docs/hosts.md); without it Gemini exits 55.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
}

function runGemini(cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(GEMINI, ['--approval-mode', 'yolo', '-p', prompt], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The function responses Gemini sent back to the model, in order. */
function responses(model: GeminiModel): string[] {
  const last = model.turns.at(-1);
  return (last?.contents ?? []).flatMap((content: any) =>
    (content.parts ?? [])
      .filter((part: any) => part.functionResponse)
      .map((part: any) => JSON.stringify(part.functionResponse)),
  );
}

test('gemini: context reaches the model, GREEN test writes by shell and write_file denied with the reason, a src write lands, the wave barrier holds AfterAgent', async (t) => {
  const p = geminiProject();
  t.after(p.cleanup);
  const script: GeminiTurn[] = [
    { call: 'run_shell_command', args: { command: 'echo x >> tests/test_a.py' } },
    { call: 'write_file', args: { file_path: join(p.project, 'tests/test_a.py'), content: 'broken\n' } },
    { call: 'write_file', args: { file_path: join(p.project, 'src/new.py'), content: 'x = 1\n' } },
    { text: 'All done.' },
  ];
  const model = await startGeminiModel(script);
  t.after(() => model.close());
  const run = await runGemini(p.project, geminiEnv(p.home, model), 'implement the feature');
  assert.equal(run.code, 0, run.out);

  assert.match(
    JSON.stringify(model.turns[0]?.contents),
    /Resume: demo · Phase 1\/2 · GREEN/,
    'context reaches the first request',
  );
  const [shell, testWrite, srcWrite] = responses(model);
  assert.match(shell ?? '', /blocked[\s\S]*GREEN/, 'shell write denied, reason shown');
  assert.match(testWrite ?? '', /blocked[\s\S]*GREEN/, 'write_file to tests denied, reason shown');
  assert.doesNotMatch(srcWrite ?? '', /blocked/);
  assert.equal(readFileSync(join(p.project, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
  assert.ok(existsSync(join(p.project, 'src/new.py')), 'the src write lands');
  // PreCompress fires before every model call: a revision only where the task changed since the last one.
  const history = baton(['history', '.claude/state/current-task.json', '--json'], { cwd: p.project });
  const writers = history.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).writer as string);
  assert.ok(writers.includes('pre-compact'), history.stdout);
  assert.ok(
    writers.every((writer, i) => writer !== 'pre-compact' || writers[i + 1] !== 'pre-compact'),
    `no pre-compact revision right after another: ${writers.join(', ')}`,
  );
  assert.ok(
    model.turns.some((body) => JSON.stringify(body.contents).includes('Wave 1 is not complete')),
    'the AfterAgent block (the open wave) reaches the model as a new prompt',
  );
  // What the user typed, once: not with SessionStart's <hook_context> that the headless run puts
  // before it, nor the AfterAgent block's reason that comes back as a prompt.
  const audit = readFileSync(join(p.project, '.claude/stats/prompts.jsonl'), 'utf8').trimEnd().split('\n');
  assert.deepEqual(
    audit.map((line) => JSON.parse(line).len),
    ['implement the feature'.length],
  );
});

test('gemini: a project-scope install carries over to another clone (installed in one folder, run in a copy elsewhere)', async (t) => {
  const tree = tempTree({
    'a/baton.config.json': JSON.stringify({ profile: 'eneo' }),
    'a/tests/test_a.py': 'def test_a():\n    assert True\n',
    'home/.gemini/settings.json': DOC_AUTH,
  });
  t.after(tree.cleanup);
  const a = join(tree.dir, 'a');
  spawnSync('git', ['init', '-q'], { cwd: a });
  packageInProject(a);
  const installed = projectBaton(a, ['install', 'gemini']);
  assert.equal(installed.code, 0, installed.stderr);
  const settings = readFileSync(join(a, '.gemini', 'settings.json'), 'utf8');
  assert.ok(
    !settings.includes(realpathSync(tree.dir)) && !settings.includes(tree.dir),
    `no path of this machine: ${settings}`,
  );
  const task = '.claude/state/current-task.json';
  for (const args of [
    ['init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
    ['set', task, 'tdd_phase', 'GREEN'],
  ]) {
    const result = baton(args, { cwd: a });
    assert.equal(result.code, 0, result.stderr);
  }
  const b = join(tree.dir, 'elsewhere', 'b');
  cpSync(a, b, { recursive: true });
  rmSync(a, { recursive: true, force: true });
  const model = await startGeminiModel([
    { call: 'run_shell_command', args: { command: 'echo x >> tests/test_a.py' } },
    { text: 'Done.' },
  ]);
  t.after(() => model.close());
  const run = await runGemini(b, geminiEnv(join(tree.dir, 'home'), model), 'go on');
  assert.equal(run.code, 0, run.out);
  assert.match(JSON.stringify(model.turns[0]?.contents), /Resume: demo/, 'SessionStart ran from the clone');
  assert.match(responses(model)[0] ?? '', /blocked[\s\S]*GREEN/, 'the gate ran');
  assert.equal(readFileSync(join(b, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
});

test("gemini: in GREEN a shell write the parser cannot see (a script file) runs in baton's OS sandbox and cannot touch tests; a src write by script lands", async (t) => {
  const p = geminiProject();
  t.after(p.cleanup);
  writeFileSync(join(p.project, 'to-tests.sh'), 'echo x >> tests/test_a.py\n');
  writeFileSync(join(p.project, 'to-src.sh'), 'echo "c = 3" > src/c.py\n');
  const model = await startGeminiModel([
    { call: 'run_shell_command', args: { command: 'sh to-tests.sh' } },
    { call: 'run_shell_command', args: { command: 'sh to-src.sh' } },
    { text: 'Done.' },
  ]);
  t.after(() => model.close());
  const run = await runGemini(p.project, geminiEnv(p.home, model), 'go on');
  assert.equal(run.code, 0, run.out);
  const [toTests] = responses(model);
  assert.match(toTests ?? '', /Read-only file system/, 'the write failed inside the sandbox');
  assert.equal(readFileSync(join(p.project, 'tests/test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
  assert.equal(readFileSync(join(p.project, 'src/c.py'), 'utf8'), 'c = 3\n');
});
