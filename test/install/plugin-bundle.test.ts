import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { decision, eneoProject, startTask, type EneoProject } from '../harness/helpers.js';

// The plugin as a git marketplace installs it: only committed files, no install or build. Its CLI
// bundle is committed (scripts/build-plugin.mjs), and its hook wrapper (plugin/bin/baton) denies a
// gated event when that bundle cannot run.
const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });

describe('the committed plugin bundle', () => {
  it('is what scripts/build-plugin.mjs builds from src/ now (rebuilt here and compared with the git index)', () => {
    const built = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { pluginFiles } from './scripts/build-plugin.mjs'; process.stdout.write(JSON.stringify(await pluginFiles()));",
      ],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    assert.equal(built.status, 0, built.stderr);
    const files = JSON.parse(built.stdout) as Record<string, string>;
    const fix = 'plugin/dist is stale: run npm run build and commit plugin/dist';
    const committed = git(['ls-files', 'plugin/dist'])
      .stdout.split('\n')
      .filter(Boolean)
      .map((path) => path.slice('plugin/dist/'.length));
    assert.deepEqual(committed.sort(), Object.keys(files).sort(), fix);
    for (const [name, text] of Object.entries(files))
      assert.ok(git(['show', `:plugin/dist/${name}`]).stdout === text, `${name}: ${fix}`);
  });

  // 2 MiB at first; the fallback proof of harmless commands and the OS sandbox's hook side (docs/gates.md)
  // added ~57 KB to the hook's bundle. A budget with room for ordinary growth (2.06 MB on
  // 2026-12-01): it catches a map, an unminified build or a library copied into every bundle.
  it('stays small: minified, no source maps, under 3 MiB in all', () => {
    const files = git(['ls-files', '-s', 'plugin/dist']).stdout.split('\n').filter(Boolean);
    let total = 0;
    for (const line of files) {
      const [, hash, , path] = line.split(/\s+/) as [string, string, string, string];
      assert.doesNotMatch(path, /\.map$/);
      const size = Number(spawnSync('git', ['cat-file', '-s', hash], { cwd: ROOT, encoding: 'utf8' }).stdout);
      total += size;
    }
    assert.ok(total < 3 * 1024 * 1024, `plugin/dist is ${total} bytes`);
    assert.doesNotMatch(git(['grep', '-l', 'sourceMappingURL', '--', 'plugin/dist']).stdout, /\S/);
  });
});

/** The committed plugin, copied out of the repo as the host's plugin cache holds it. */
function installedPlugin(p: EneoProject): string {
  const plugin = join(p.dir, '.plugin');
  for (const path of git(['ls-files', 'plugin']).stdout.split('\n').filter(Boolean)) {
    const to = join(plugin, path.slice('plugin/'.length));
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(join(ROOT, path), to);
  }
  return plugin;
}

/** A folder for PATH with the tools the wrapper uses, and a `node` of the caller's choice (or none). */
function pathWith(p: EneoProject, node?: string): string {
  const bin = join(p.dir, `.bin-${Math.random().toString(36).slice(2)}`);
  mkdirSync(bin);
  for (const tool of ['cat', 'sed']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  if (node !== undefined) {
    writeFileSync(join(bin, 'node'), node);
    chmodSync(join(bin, 'node'), 0o755);
  }
  return bin;
}

describe('the plugin hook wrapper (plugin/bin/baton)', () => {
  const project = () => {
    const p = eneoProject();
    startTask(p);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    return { p, plugin: installedPlugin(p) };
  };
  const call = (p: EneoProject, plugin: string, event: string, payload: unknown, path?: string, host?: string) => {
    const env = cleanEnv({ ...p.env, ...(path !== undefined ? { PATH: path } : {}) });
    const args = ['hook', event, ...(host ? ['--host', host] : [])];
    const r = spawnSync('/bin/sh', [join(plugin, 'bin', 'baton'), ...args], {
      cwd: p.dir,
      env,
      input: JSON.stringify(payload),
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  const testWrite = (p: EneoProject) => ({
    session_id: 's',
    tool_name: 'Write',
    tool_input: { file_path: join(p.dir, 'tests', 'test_x.py'), content: '' },
  });
  const srcWrite = (p: EneoProject) => ({
    session_id: 's',
    tool_name: 'Write',
    tool_input: { file_path: join(p.dir, 'src', 'app.py'), content: '' },
  });
  const blockReason = (stdout: string) =>
    stdout.trim() === '' ? undefined : (JSON.parse(stdout) as { decision?: string; reason?: string }).reason;

  it('runs the committed bundle: the GREEN test write is denied by the gate, the src write allowed', (t) => {
    const { p, plugin } = project();
    t.after(p.cleanup);
    assert.match(decision(call(p, plugin, 'PreToolUse', testWrite(p))).reason, /gate-green/);
    assert.equal(decision(call(p, plugin, 'PreToolUse', srcWrite(p))).kind, 'allow');
    const version = spawnSync('/bin/sh', [join(plugin, 'bin', 'baton'), '--version'], {
      encoding: 'utf8',
      env: cleanEnv(),
    });
    assert.match(version.stdout, /^baton \d/);
  });

  const cases: [string, (p: EneoProject, plugin: string) => string | undefined, RegExp][] = [
    ['no node on PATH', (p) => pathWith(p), /node is not on the PATH hooks run with; install Node 20 or newer/],
    [
      'a Node older than 20',
      // A node that reports 18 and runs the bundle as Node 18 would see itself.
      (p) => {
        const pretend = join(p.dir, '.pretend-18.cjs');
        writeFileSync(
          pretend,
          "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.19.0' } });\n" +
            "Object.defineProperty(process, 'version', { value: 'v18.19.0' });\n",
        );
        return pathWith(
          p,
          `#!/bin/sh\nif [ "$1" = --version ]; then echo v18.19.0; exit 0; fi\nexec "${process.execPath}" -r "${pretend}" "$@"\n`,
        );
      },
      /Node v18\.19\.0 is too old \(baton needs Node 20 or newer\); install Node 20\+/,
    ],
    [
      'the bundle missing (a checkout from before it was committed)',
      (_p, plugin) => (rmSync(join(plugin, 'dist', 'cli.js')), undefined),
      /its CLI bundle .*dist\/cli\.js is missing; reinstall the baton plugin/,
    ],
    [
      'the bundle crashing before it answers',
      (_p, plugin) => (writeFileSync(join(plugin, 'dist', 'main.js'), 'throw new Error("broken copy")\n'), undefined),
      // The entry says a main that cannot be loaded in one line, with exit 70 (internal).
      /its CLI exited 70 without an answer; run 'baton doctor'/,
    ],
  ];
  for (const [label, breakIt, why] of cases) {
    it(`${label}: PreToolUse denied, Stop blocked once, other events silent`, (t) => {
      const { p, plugin } = project();
      t.after(p.cleanup);
      const path = breakIt(p, plugin);
      const pre = call(p, plugin, 'PreToolUse', testWrite(p), path);
      assert.equal(pre.code, 0);
      const answer = decision(pre);
      assert.equal(answer.kind, 'deny');
      assert.match(answer.reason, /^baton could not check this call: /);
      assert.match(answer.reason, why);
      assert.match(
        blockReason(call(p, plugin, 'Stop', { session_id: 's', stop_hook_active: false }, path).stdout) ?? '',
        why,
      );
      assert.equal(call(p, plugin, 'Stop', { session_id: 's', stop_hook_active: true }, path).stdout, '');
      for (const event of ['SessionStart', 'SubagentStop', 'UserPromptSubmit']) {
        const r = call(p, plugin, event, { session_id: 's', prompt: 'hi' }, path);
        assert.deepEqual([r.code, r.stdout], [0, ''], event);
      }
    });
  }

  it('no node on PATH: the other hosts get their own deny (Gemini BeforeTool and AfterAgent, Cursor preToolUse and beforeShellExecution)', (t) => {
    const { p, plugin } = project();
    t.after(p.cleanup);
    const path = pathWith(p);
    const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, unknown>;
    const why = /^baton could not check this call: node is not on the PATH/;
    const gemini = json(call(p, plugin, 'BeforeTool', { tool_name: 'write_file' }, path, 'gemini'));
    assert.equal(gemini.decision, 'deny');
    assert.match(String(gemini.reason), why);
    const after = json(call(p, plugin, 'AfterAgent', { stop_hook_active: false }, path, 'gemini'));
    assert.equal(after.decision, 'deny');
    assert.equal(call(p, plugin, 'AfterAgent', { stop_hook_active: true }, path, 'gemini').stdout, '');
    for (const event of ['preToolUse', 'beforeShellExecution']) {
      const cursor = json(call(p, plugin, event, { command: 'echo x > tests/t.py' }, path, 'cursor'));
      assert.equal(cursor.permission, 'deny', event);
      assert.match(String(cursor.agent_message), why);
    }
    const codex = json(call(p, plugin, 'PreToolUse', { tool_name: 'Bash' }, path, 'codex'));
    assert.equal((codex.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'deny');
    assert.equal(call(p, plugin, 'BeforeAgent', { prompt: 'hi' }, path, 'gemini').stdout, '');
  });
});
