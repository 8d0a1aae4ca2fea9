/**
 * End-to-end with the real Claude Code (pinned, installed on demand: ./claude-code.ts) against a scripted model
 * stand-in: the plugin is loaded with --plugin-dir, hooks fire with real payloads, tools really
 * run, and the requests Claude Code sends show what reached the model. Sessions are few and short.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baton, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { startCluster } from '../helpers/postgres-cluster.js';
import {
  CLAUDE,
  claudeEnv,
  drawUntil,
  printArgs,
  runClaude,
  session,
  toolResults,
  trust,
  trustedProject,
} from './claude-session.js';
import { startMockModel, type Turn } from './mock-model.js';

const PLUGIN = join(ROOT, 'plugin');

/** A project the real CLI trusts, with an eneo task in GREEN (phase 1 of 2); `config` adds to its baton.config.json. */
function eneoProject(config: Record<string, unknown> = {}) {
  const trusted = trustedProject({ 'baton.config.json': JSON.stringify({ profile: 'eneo', ...config }) });
  const { project } = trusted;
  const task = '.claude/state/current-task.json';
  const run = (...args: string[]) => {
    const result = baton(args, { cwd: project });
    assert.equal(result.code, 0, `baton ${args.join(' ')}: ${result.stderr}`);
  };
  run('init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast');
  run('set', task, 'tdd_phase', 'GREEN');
  run('set', task, 'phase', '1', '--json');
  run('set', task, 'phase_total', '2', '--json');
  return trusted;
}

test('claude plugin validate plugin/ passes', () => {
  const home = tempTree();
  try {
    const result = spawnSync(CLAUDE, ['plugin', 'validate', PLUGIN], {
      env: claudeEnv(home.dir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /Validation passed/);
    // The workflows' agent-facing half is what the validator found in the plugin.
    for (const part of [
      'skills: baton:handoff',
      'skills: baton:orchestrate',
      'commands: baton:task-start',
      'commands: baton:task-wave',
      'commands: baton:task-phase',
      'commands: baton:task-verify',
      'commands: baton:task-done',
      'agents: baton:test-writer',
      'agents: baton:implementer',
    ])
      assert.ok(result.stdout.includes(part), `validate does not list ${part}:\n${result.stdout}`);
    const market = spawnSync(CLAUDE, ['plugin', 'validate', ROOT], {
      env: claudeEnv(home.dir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(market.status, 0, `${market.stdout}\n${market.stderr}`);
  } finally {
    home.cleanup();
  }
});

test('the plugin installs from a marketplace (this repository as a local path) and its bundled CLI runs', () => {
  const home = tempTree();
  try {
    const env = claudeEnv(home.dir);
    const run = (...args: string[]) => {
      const result = spawnSync(CLAUDE, args, { env, cwd: home.dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(result.status, 0, `claude ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
      return result.stdout;
    };
    run('plugin', 'marketplace', 'add', ROOT);
    run('plugin', 'install', 'baton@baton');
    assert.match(run('plugin', 'list'), /baton@baton[\s\S]*enabled/);
    const installed = JSON.parse(readFileSync(join(home.dir, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'))
      .plugins['baton@baton'][0].installPath as string;
    const version = spawnSync('sh', [join(installed, 'bin', 'baton'), '--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^baton \d/);
  } finally {
    home.cleanup();
  }
});

test(
  'plugin session: resume context reaches the model, a GREEN test write is denied, a source write happens, the prompt is audited',
  { timeout: 120_000 },
  async (t) => {
    const p = eneoProject();
    t.after(p.cleanup);
    const denied = join(p.project, 'tests', 'test_gate.py');
    const allowed = join(p.project, 'src', 'app.py');
    const script: Turn[] = [
      { tool: 'Write', input: { file_path: denied, content: 'def test_x():\n    assert False\n' } },
      { tool: 'Write', input: { file_path: allowed, content: 'VALUE = 1\n' } },
      { text: 'All done.' },
    ];
    const model = await startMockModel(script);
    t.after(() => model.close());
    const prompt = 'make the failing test pass';
    const run = await session(p.project, p.home, model, prompt, ['--plugin-dir', PLUGIN]);
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.ok(run.result, `not JSON: ${run.stdout}`);

    const first = JSON.stringify(model.turns()[0]?.body ?? {});
    assert.ok(first.includes('Resume: demo · Phase 1/2 · GREEN'), 'SessionStart context is in the first model request');

    assert.ok(!existsSync(denied), 'the test file was not written in GREEN');
    const denial = toolResults(model).get('toolu_mock_1');
    assert.ok(denial, 'the model got a result for the denied Write');
    assert.match(denial.text, /Blocked: attempted to edit test file during GREEN phase/);
    assert.match(denial.text, /gate-green/);
    const denials = run.result.permission_denials ?? [];
    assert.equal(denials.length, 1, JSON.stringify(denials));
    assert.equal(denials[0].tool_name, 'Write');

    assert.equal(readFileSync(allowed, 'utf8'), 'VALUE = 1\n', 'the allowed Write happened');
    assert.equal(toolResults(model).get('toolu_mock_2')?.isError, false);

    const audit = readFileSync(join(p.project, '.claude', 'stats', 'prompts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(audit.length, 1);
    assert.deepEqual(Object.keys(audit[0]), ['ts', 'slug', 'hash', 'len']);
    assert.equal(audit[0].slug, 'demo');
    assert.equal(audit[0].hash, createHash('sha256').update(prompt).digest('hex').slice(0, 16));
    assert.equal(audit[0].len, prompt.length);
    assert.ok(
      !readFileSync(join(p.project, '.claude', 'stats', 'prompts.jsonl'), 'utf8').includes(prompt),
      'never the prompt itself',
    );
  },
);

test(
  'settings from `baton install claude --project` (no plugin): the bash firewall denies a write to the phase mirror',
  { timeout: 120_000 },
  async (t) => {
    const p = eneoProject();
    t.after(p.cleanup);
    // baton install refuses while a gate is active (it changes the hooks that enforce it): the
    // user installs outside the phase, then the task goes back to GREEN.
    const task = '.claude/state/current-task.json';
    assert.equal(baton(['set', task, 'tdd_phase', 'FREE'], { cwd: p.project }).code, 0);
    const installed = baton(['install', 'claude', '--project'], { cwd: p.project });
    assert.equal(installed.code, 0, installed.stderr);
    assert.equal(baton(['set', task, 'tdd_phase', 'GREEN'], { cwd: p.project }).code, 0);
    const mirror = join(p.project, '.claude', 'state', 'phase');
    mkdirSync(join(p.project, 'tests'));
    const script: Turn[] = [
      { tool: 'Bash', input: { command: `echo RED > ${mirror}`, description: 'flip the phase' } },
      { tool: 'Bash', input: { command: 'echo hello > notes.txt', description: 'write a note' } },
      // Read by the shell parser: no string match sees a test file in this one.
      {
        tool: 'Bash',
        input: {
          command: "D=te; cd \"${D}sts\" && echo x >| 'test_''gate.py'",
          description: 'write a test file another way',
        },
      },
      { text: 'Done.' },
    ];
    const model = await startMockModel(script);
    t.after(() => model.close());
    const run = await session(p.project, p.home, model, 'switch to RED');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.equal(readFileSync(mirror, 'utf8'), 'GREEN\n', 'the mirror is unchanged');
    assert.match(
      toolResults(model).get('toolu_mock_1')?.text ?? '',
      /bash modification of \.claude\/state\/phase[\s\S]*bash-phase-mirror/,
    );
    assert.equal(readFileSync(join(p.project, 'notes.txt'), 'utf8'), 'hello\n', 'an ordinary command ran');
    assert.match(
      toolResults(model).get('toolu_mock_3')?.text ?? '',
      /bash modification of a test file during GREEN[\s\S]*bash-green-tests/,
    );
    assert.ok(
      !existsSync(join(p.project, 'tests', 'test_gate.py')),
      'the parsed-shell deny kept the test file unwritten',
    );
    assert.ok(
      JSON.stringify(model.turns()[0]?.body ?? {}).includes('Resume: demo'),
      'settings SessionStart hook ran too',
    );
  },
);

/** Writes a test file, then a source file, then ends: what a GREEN gate must split. */
async function greenWrites(t: { after(fn: () => unknown): void }, p: { project: string }) {
  const denied = join(p.project, 'tests', 'test_gate.py');
  const allowed = join(p.project, 'src', 'app.py');
  const model = await startMockModel([
    { tool: 'Write', input: { file_path: denied, content: 'def test_x():\n    assert False\n' } },
    { tool: 'Write', input: { file_path: allowed, content: 'VALUE = 1\n' } },
    { text: 'All done.' },
  ]);
  t.after(() => model.close());
  return { denied, allowed, model };
}

test(
  'the plugin installed from a clone of the committed tree (no dist/, no node_modules): a GREEN test write is denied, a source write happens',
  { timeout: 180_000 },
  async (t) => {
    const p = eneoProject();
    t.after(p.cleanup);
    // What a git marketplace holds: the committed files of this commit, nothing built or installed.
    const clone = join(p.dir, 'marketplace');
    const cloned = spawnSync('git', ['clone', '-q', '--no-local', ROOT, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, cloned.stderr);
    spawnSync('git', [
      '-C',
      clone,
      'checkout',
      '-q',
      spawnSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim(),
    ]);
    assert.ok(!existsSync(join(clone, 'dist')) && !existsSync(join(clone, 'node_modules')));
    const env = claudeEnv(p.home);
    for (const args of [
      ['plugin', 'marketplace', 'add', clone],
      ['plugin', 'install', 'baton@baton'],
    ]) {
      const r = spawnSync(CLAUDE, args, { env, cwd: p.home, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `claude ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
    }
    const { denied, allowed, model } = await greenWrites(t, p);
    const run = await session(p.project, p.home, model, 'make the failing test pass');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.ok(!existsSync(denied), 'the test file was not written in GREEN');
    assert.match(toolResults(model).get('toolu_mock_1')?.text ?? '', /gate-green/);
    assert.equal(readFileSync(allowed, 'utf8'), 'VALUE = 1\n', 'the allowed Write happened');
  },
);

test(
  'PostgreSQL stopped: a GREEN test write is denied and a source write happens, each gated hook judging by the local files on its own store budget',
  { timeout: 180_000 },
  async (t) => {
    const cluster = await startCluster();
    let stopped = false;
    t.after(() => stopped || cluster.stop());
    const url = await cluster.createDatabase('e2e');
    const migrated = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
    assert.equal(migrated.code, 0, migrated.stderr);
    // The task is made while the server runs (its mirror files are on disk); then it stops.
    const p = eneoProject({ store: url, project: 'e2e' });
    t.after(p.cleanup);
    cluster.stop();
    stopped = true;
    const log = join(p.dir, 'hooks.log');
    const { denied, allowed, model } = await greenWrites(t, p);
    const run = await runClaude(
      p.project,
      { ...claudeEnv(p.home, model), BATON_DEBUG_LOG: log },
      printArgs('make the failing test pass', '--plugin-dir', PLUGIN),
    );
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.ok(!existsSync(denied), 'the test file was not written in GREEN');
    assert.match(toolResults(model).get('toolu_mock_1')?.text ?? '', /gate-green/);
    assert.equal(readFileSync(allowed, 'utf8'), 'VALUE = 1\n', 'the allowed Write happened');
    // Each PreToolUse hook gave up on the store by its own budget and said how long it had run; the
    // figure depends on the machine's load, so it is reported in docs/hooks.md, not asserted here.
    const ran = [...readFileSync(log, 'utf8').matchAll(/PreToolUse .*the hook had run (\d+) ms/g)];
    assert.equal(ran.length, 2, readFileSync(log, 'utf8'));
  },
);

test(
  'the OS sandbox in the real CLI: in GREEN a Bash test write the parser cannot resolve leaves the file as it was, a src write lands, cd persists, and the rewrite still passes the permission check',
  { timeout: 180_000 },
  async (t) => {
    const p = eneoProject();
    t.after(p.cleanup);
    const test = join(p.project, 'tests', 'test_calc.py');
    mkdirSync(join(p.project, 'tests'));
    mkdirSync(join(p.project, 'src'));
    writeFileSync(test, 'def test_add():\n    assert add(1, 2) == 3\n');
    const script: Turn[] = [
      {
        tool: 'Bash',
        input: { command: 'f=$(printf tests/test_calc.py); echo hacked > "$f"', description: 'edit the test' },
      },
      { tool: 'Bash', input: { command: "cd src && echo 'VALUE = 1' > app.py", description: 'write source' } },
      { tool: 'Bash', input: { command: 'pwd', description: 'where am I' } },
      { text: 'Done.' },
    ];
    const model = await startMockModel(script);
    t.after(() => model.close());
    const run = await session(p.project, p.home, model, 'make the test pass', ['--plugin-dir', PLUGIN]);
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.equal(readFileSync(test, 'utf8'), 'def test_add():\n    assert add(1, 2) == 3\n', 'the test is unchanged');
    assert.match(toolResults(model).get('toolu_mock_1')?.text ?? '', /Read-only file system/);
    assert.equal(readFileSync(join(p.project, 'src', 'app.py'), 'utf8'), 'VALUE = 1\n', 'the src write landed');
    assert.match(toolResults(model).get('toolu_mock_3')?.text ?? '', /\/project\/src/, 'the cd persisted');
    assert.deepEqual(run.result.permission_denials ?? [], []);

    // Default permission mode with no allow rules: the hook's rewrite carries no decision, so
    // Claude Code still asks about the (rewritten) command, and under -p that refuses it.
    const strict = await startMockModel([
      { tool: 'Bash', input: { command: "echo 'VALUE = 2' > src/app.py", description: 'write source' } },
      { text: 'Done.' },
    ]);
    t.after(() => strict.close());
    const asked = await runClaude(p.project, claudeEnv(p.home, strict), [
      '-p',
      'write it',
      '--output-format',
      'json',
      '--plugin-dir',
      PLUGIN,
    ]);
    assert.ok(asked.result, `not JSON: ${asked.stdout}\n${asked.stderr}`);
    assert.equal(asked.result.permission_denials?.[0]?.tool_name, 'Bash', JSON.stringify(asked.result));
    assert.equal(readFileSync(join(p.project, 'src', 'app.py'), 'utf8'), 'VALUE = 1\n', 'nothing ran unasked');
  },
);

test(
  'baton serve (BATON_SERVE=1): SessionStart starts the server, which denies a GREEN test write; killed mid-session, the next test write is still denied, judged in process',
  { timeout: 180_000 },
  async (t) => {
    const p = eneoProject();
    const serveFile = join(p.project, '.baton', 'serve.json');
    const served = () => JSON.parse(readFileSync(serveFile, 'utf8')) as { pid: number };
    // Whatever happens, no server outlives the test: killed before the project (and serve.json) goes.
    t.after(() => {
      try {
        process.kill(served().pid, 'SIGKILL');
      } catch {
        // gone already, or never started
      }
    });
    t.after(p.cleanup);
    const log = join(p.dir, 'hooks.log');
    const first = join(p.project, 'tests', 'test_gate.py');
    const second = join(p.project, 'tests', 'test_other.py');
    const allowed = join(p.project, 'src', 'app.py');
    let serverPid = 0;
    const model = await startMockModel(
      [
        { tool: 'Write', input: { file_path: first, content: 'def test_x():\n    assert False\n' } },
        { tool: 'Write', input: { file_path: allowed, content: 'VALUE = 1\n' } },
        { tool: 'Write', input: { file_path: second, content: 'def test_y():\n    assert False\n' } },
        { text: 'All done.' },
      ],
      {},
      {
        // Before the third tool call: the server dies as a crash would, leaving serve.json behind.
        beforeTurn: (n) => {
          if (n !== 3) return;
          serverPid = served().pid;
          process.kill(serverPid, 'SIGKILL');
        },
      },
    );
    t.after(() => model.close());
    const run = await runClaude(
      p.project,
      { ...claudeEnv(p.home, model), BATON_SERVE: '1', BATON_DEBUG_LOG: log },
      printArgs('make the failing test pass', '--plugin-dir', PLUGIN),
    );
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.ok(serverPid > 0, 'the server was running by the third turn');
    assert.ok(!existsSync(first) && !existsSync(second), 'neither test file was written in GREEN');
    assert.equal(readFileSync(allowed, 'utf8'), 'VALUE = 1\n', 'the allowed Write happened');
    const results = toolResults(model);
    assert.match(results.get('toolu_mock_1')?.text ?? '', /gate-green/);
    assert.match(results.get('toolu_mock_3')?.text ?? '', /gate-green/);
    // Who judged each: the server's process, then (the server dead) the hook's own.
    const denials = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('deny by gate-green'));
    const judge = (file: string) => denials.find((line) => line.includes(file))?.match(/pid=(\d+)/)?.[1];
    assert.equal(judge(first), String(serverPid), readFileSync(log, 'utf8'));
    // Judged once: the client believed the server's signed answer and judged nothing again in process.
    assert.equal(denials.filter((line) => line.includes(first)).length, 1, readFileSync(log, 'utf8'));
    assert.ok(judge(second) !== undefined && judge(second) !== String(serverPid), readFileSync(log, 'utf8'));
  },
);

test(
  'baton serve: the status line draws in an interactive session, drawn by the server through the plugin wrapper',
  { timeout: 120_000 },
  async (t) => {
    const p = eneoProject();
    const serveFile = join(p.project, '.baton', 'serve.json');
    const served = () => JSON.parse(readFileSync(serveFile, 'utf8')) as { url: string; pid: number; token: string };
    t.after(() => {
      try {
        process.kill(served().pid, 'SIGKILL');
      } catch {
        // gone already, or never started
      }
    });
    t.after(p.cleanup);
    // The interactive UI asks once about a key from the environment; the model is never called.
    trust(p.home, p.project, true);
    // The status line command baton install writes for the plugin: the wrapper, which asks the server.
    mkdirSync(join(p.project, '.claude'), { recursive: true });
    writeFileSync(
      join(p.project, '.claude', 'settings.json'),
      JSON.stringify({ statusLine: { type: 'command', command: `${join(PLUGIN, 'bin', 'baton')} statusline` } }),
    );
    const env = {
      ...claudeEnv(p.home),
      BATON_SERVE: '1',
      TERM: 'xterm-256color',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    };
    // Started before the session (docs/serve.md: `baton serve --detach` in the project), so the
    // first line is already the server's: the UI draws it once at start and again only on changes.
    const started = baton(['serve', '--detach'], { cwd: p.project, baseEnv: env });
    assert.equal(started.code, 0, started.stderr);
    const run = await drawUntil(p.project, env, ['demo', 'GREEN'], ['--plugin-dir', PLUGIN]);
    assert.equal(run.code, 0, `the status line never drew:\n${run.screen}`);
    // The line the server drew: the task's slug and its phase, in the status line's colours.
    assert.match(run.screen, /demo.{0,60}GREEN/);
    const { url, token } = served();
    const health = await fetch(`${url}/health`, { headers: { Authorization: `Bearer ${token}` } });
    const drawn = ((await health.json()) as { statuslines: number }).statuslines;
    assert.ok(drawn >= 1, `the server drew ${drawn} status lines`);
  },
);

test(
  'baton serve (BATON_SERVE=1): the wave barrier counts three parallel subagents, each SubagentStop answered by the server',
  { timeout: 180_000 },
  async (t) => {
    const p = eneoProject();
    const serveFile = join(p.project, '.baton', 'serve.json');
    // Killed before the project (and serve.json) goes: after-hooks run in the order they were added.
    t.after(() => {
      try {
        process.kill(JSON.parse(readFileSync(serveFile, 'utf8')).pid, 'SIGKILL');
      } catch {
        // gone already, or never started
      }
    });
    t.after(p.cleanup);
    const opened = baton(['task', 'wave-start', '1', '3'], { cwd: p.project });
    assert.equal(opened.code, 0, opened.stderr);
    const log = join(p.dir, 'hooks.log');
    const agent = (name: string) => ({
      tool: 'Agent',
      input: {
        description: `part ${name}`,
        subagent_type: 'general-purpose',
        prompt: `[[agent:${name}]] do part ${name}`,
        run_in_background: false,
      },
    });
    const names = ['one', 'two', 'three'];
    const model = await startMockModel(
      [{ tools: names.map(agent) }, { text: 'All three done.' }],
      Object.fromEntries(names.map((name) => [name, [{ text: `DONE|part ${name}` }]])),
    );
    t.after(() => model.close());
    const run = await runClaude(
      p.project,
      { ...claudeEnv(p.home, model), BATON_SERVE: '1', BATON_DEBUG_LOG: log },
      printArgs('run the wave', '--plugin-dir', PLUGIN),
    );
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    const wave = JSON.parse(readFileSync(join(p.project, '.claude', 'state', 'wave.json'), 'utf8'));
    assert.deepEqual([wave.wave, wave.done, wave.expected, wave.status], [1, 3, 3, 'ready-for-next-wave']);
    const serverPid = JSON.parse(readFileSync(serveFile, 'utf8')).pid as number;
    const counted = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => /\[wave-barrier\] wave 1: \d\/3/.test(line));
    assert.equal(counted.length, 3, readFileSync(log, 'utf8'));
    for (const line of counted) assert.match(line, new RegExp(`pid=${serverPid} `), 'the server counted it');
  },
);
