import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, BIN } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { EVENT_NAMES, EVENTS } from '../../src/harness/hooks/events.js';

// `baton install codex|gemini|cursor` as a process against real settings files.
const CMD = `sh "${join(BIN, '..', '..', 'plugin', 'bin', 'baton')}"`;
const FILES = { codex: '.codex/hooks.json', gemini: '.gemini/settings.json', cursor: '.cursor/hooks.json' } as const;
type Host = keyof typeof FILES;

function project(host: Host, files: Record<string, string> = {}) {
  const tree = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const settings = join(tree.dir, FILES[host]);
  const home = join(tree.dir, 'home');
  const install = (...args: string[]) => baton(['install', host, ...args], { cwd: tree.dir, env: { HOME: home } });
  const read = () => JSON.parse(readFileSync(settings, 'utf8'));
  return { ...tree, settings, home, install, read };
}

const hostNames = (host: Host) => EVENT_NAMES.flatMap((event) => EVENTS[event].hosts[host] ?? []);

test('codex: every event in its names, the matcher Codex 0.171 needs, seconds, an absolute command', (t) => {
  const p = project('codex');
  t.after(p.cleanup);
  const result = p.install();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /installed baton hooks into .*\.codex\/hooks\.json/);
  // baton lives outside this project: the file names this machine's path, and says so.
  assert.match(result.stderr, /names baton by this machine's path .* before committing \.codex\/hooks\.json/);
  assert.doesNotMatch(p.install('--user').stderr, /this machine's path/);
  const { hooks } = p.read();
  assert.deepEqual(Object.keys(hooks), hostNames('codex'));
  for (const name of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'SubagentStop', 'PreCompact', 'Stop'])
    assert.ok(hooks[name], `${name} installed`);
  assert.deepEqual(hooks.PreToolUse, [
    {
      matcher: '^(Bash|apply_patch)$',
      hooks: [{ type: 'command', command: `${CMD} hook PreToolUse --host codex`, timeout: 5 }],
    },
  ]);
  assert.equal(hooks.Stop[0].hooks[0].timeout, 300);
  assert.equal(hooks.Stop[0].matcher, undefined);
  assert.equal(p.read().statusLine, undefined, 'no status line outside Claude Code');
});

test('gemini: its event names, tool matcher, timeouts in milliseconds, no SubagentStop', (t) => {
  const p = project('gemini');
  t.after(p.cleanup);
  assert.equal(p.install().code, 0);
  const { hooks } = p.read();
  assert.deepEqual(Object.keys(hooks).sort(), [
    'AfterAgent',
    'BeforeAgent',
    'BeforeTool',
    'PreCompress',
    'SessionEnd',
    'SessionStart',
  ]);
  assert.equal(hooks.BeforeTool[0].matcher, '^(write_file|replace|run_shell_command)$');
  assert.equal(hooks.BeforeTool[0].hooks[0].command, `${CMD} hook BeforeTool --host gemini`);
  assert.equal(hooks.BeforeTool[0].hooks[0].timeout, 5000);
  assert.equal(hooks.AfterAgent[0].hooks[0].timeout, 300000);
});

test('cursor: flat entries, version 1, both the tool and shell events', (t) => {
  const p = project('cursor');
  t.after(p.cleanup);
  assert.equal(p.install().code, 0);
  const settings = p.read();
  assert.equal(settings.version, 1);
  assert.deepEqual(settings.hooks.preToolUse, [{ command: `${CMD} hook preToolUse --host cursor` }]);
  assert.deepEqual(settings.hooks.beforeShellExecution, [
    { command: `${CMD} hook beforeShellExecution --host cursor` },
  ]);
  assert.deepEqual(Object.keys(settings.hooks), hostNames('cursor'));
});

test('keeps the user entries, replaces an old baton entry, a re-run changes nothing, --remove takes out only ours', (t) => {
  const mine = { type: 'command', command: './my-guard.sh', timeout: 3 };
  const original = {
    general: { vimMode: true },
    hooks: {
      BeforeTool: [
        { matcher: 'run_shell_command', hooks: [mine] },
        {
          matcher: 'write_file',
          hooks: [{ type: 'command', command: 'baton hook BeforeTool --host gemini', timeout: 5000 }],
        },
      ],
      AfterTool: [{ hooks: [{ type: 'command', command: 'prettier' }] }],
    },
  };
  const p = project('gemini', { '.gemini/settings.json': JSON.stringify(original) });
  t.after(p.cleanup);
  assert.equal(p.install().code, 0);
  const settings = p.read();
  assert.deepEqual(settings.general, original.general);
  assert.deepEqual(settings.hooks.AfterTool, original.hooks.AfterTool);
  assert.deepEqual(
    settings.hooks.BeforeTool.flatMap((entry: any) => entry.hooks.map((hook: any) => hook.command)),
    ['./my-guard.sh', `${CMD} hook BeforeTool --host gemini`],
    'the hand-written baton entry is replaced, not duplicated',
  );
  const before = readFileSync(p.settings, 'utf8');
  assert.match(p.install().stderr, /already up to date/);
  assert.equal(readFileSync(p.settings, 'utf8'), before);
  assert.equal(p.install('--remove').code, 0);
  assert.deepEqual(p.read(), {
    general: original.general,
    hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [mine] }], AfterTool: original.hooks.AfterTool },
  });
});

test('cursor --remove keeps a foreign flat entry', (t) => {
  const p = project('cursor', {
    '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { stop: [{ command: 'notify' }] } }),
  });
  t.after(p.cleanup);
  p.install();
  assert.deepEqual(p.read().hooks.stop, [{ command: 'notify' }, { command: `${CMD} hook stop --host cursor` }]);
  p.install('--remove');
  assert.deepEqual(p.read(), { version: 1, hooks: { stop: [{ command: 'notify' }] } });
});

test('--user: $CODEX_HOME or ~/.codex, ~/.gemini, ~/.cursor; the project is untouched', (t) => {
  for (const host of ['codex', 'gemini', 'cursor'] as const) {
    const p = project(host);
    t.after(p.cleanup);
    assert.equal(p.install('--user').code, 0);
    assert.ok(existsSync(join(p.home, FILES[host])), host);
    assert.ok(!existsSync(p.settings));
  }
  const p = project('codex');
  t.after(p.cleanup);
  const codexHome = join(p.dir, 'ch');
  baton(['install', 'codex', '--user'], { cwd: p.dir, env: { HOME: p.home, CODEX_HOME: codexHome } });
  assert.ok(existsSync(join(codexHome, 'hooks.json')));
});

test('a malformed hooks file is an error naming it, and nothing changes', (t) => {
  for (const content of ['{"hooks": {', '{"hooks": []}']) {
    const p = project('codex', { '.codex/hooks.json': content });
    t.after(p.cleanup);
    const result = p.install();
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes(p.settings), result.stderr);
    assert.equal(readFileSync(p.settings, 'utf8'), content);
  }
});

test('an unknown host is a usage error naming the hosts and docs/hosts.md', (t) => {
  const p = project('codex');
  t.after(p.cleanup);
  const result = baton(['install', 'vim'], { cwd: p.dir });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /claude, codex, gemini, cursor.*docs\/hosts\.md/);
});
