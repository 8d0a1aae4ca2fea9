import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, BIN, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { defaultCommand } from '../../src/harness/install/install.js';
import { HOOKS } from '../../src/harness/install/hooks.js';

// `baton install claude` as a process against real settings files.
const EVENTS = HOOKS.map((hook) => hook.event);
// The package's hook wrapper, beside the bin script (plugin/bin/baton).
const CMD = `sh "${join(BIN, '..', '..', 'plugin', 'bin', 'baton')}"`;

function project(files: Record<string, string> = {}) {
  const tree = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const settings = join(tree.dir, '.claude', 'settings.json');
  const install = (...args: string[]) =>
    baton(['install', 'claude', ...args], { cwd: tree.dir, env: { HOME: join(tree.dir, 'home') } });
  const read = () => JSON.parse(readFileSync(settings, 'utf8'));
  return { ...tree, settings, install, read };
}

const commandsOf = (settings: any, event: string): string[] =>
  (settings.hooks[event] ?? []).flatMap((entry: any) => entry.hooks.map((hook: any) => hook.command));

test('fresh project: every event, narrow matcher, timeouts in seconds, status line', (t) => {
  const p = project();
  t.after(p.cleanup);
  const result = p.install();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /installed baton hooks and status line into .*\.claude\/settings\.json/);
  const settings = p.read();
  assert.deepEqual(Object.keys(settings.hooks), EVENTS);
  assert.deepEqual(commandsOf(settings, 'PreToolUse'), [`${CMD} hook PreToolUse`]);
  assert.equal(settings.hooks.PreToolUse[0].matcher, 'Edit|Write|MultiEdit|NotebookEdit|Bash');
  for (const event of EVENTS)
    for (const entry of settings.hooks[event])
      assert.ok(entry.hooks[0].timeout <= 300, `${event} timeout looks like ms`);
  assert.deepEqual(settings.statusLine, { type: 'command', command: `${CMD} statusline`, padding: 0 });
});

test('the written commands run: the status line command through sh', (t) => {
  const p = project();
  t.after(p.cleanup);
  p.install();
  const command = p.read().statusLine.command;
  const result = spawnSync('sh', ['-c', command], {
    cwd: p.dir,
    input: JSON.stringify({ model: { display_name: 'Opus' } }),
    encoding: 'utf8',
    env: cleanEnv({ NO_COLOR: '1' }),
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^\[Opus\] /);
});

test('merges without clobbering; a re-run changes nothing; an old baton path is replaced', (t) => {
  const mine = { type: 'command', command: './my-guard.sh', timeout: 3 };
  const original = {
    permissions: { allow: ['Bash(npm test)'] },
    env: { FOO: '1' },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [mine] },
        {
          matcher: 'Write',
          hooks: [
            { type: 'command', command: 'node "/old/place/bin/baton.js" hook PreToolUse', timeout: 5 },
            { type: 'command', command: 'echo shared' },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'baton hook Stop' }] }],
      PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier' }] }],
    },
  };
  const p = project({ '.claude/settings.json': JSON.stringify(original, null, 2) });
  t.after(p.cleanup);
  assert.equal(p.install().code, 0);
  const settings = p.read();
  assert.deepEqual(settings.permissions, original.permissions);
  assert.deepEqual(settings.env, original.env);
  assert.deepEqual(settings.hooks.PostToolUse, original.hooks.PostToolUse);
  assert.deepEqual(settings.hooks.PreToolUse[0], { matcher: 'Bash', hooks: [mine] });
  assert.deepEqual(
    settings.hooks.PreToolUse[1],
    { matcher: 'Write', hooks: [{ type: 'command', command: 'echo shared' }] },
    'a shared entry keeps the foreign hook',
  );
  assert.deepEqual(commandsOf(settings, 'PreToolUse'), ['./my-guard.sh', 'echo shared', `${CMD} hook PreToolUse`]);
  assert.deepEqual(
    commandsOf(settings, 'Stop'),
    [`${CMD} hook Stop`],
    'an older `baton hook Stop` is replaced, not duplicated',
  );
  const before = readFileSync(p.settings, 'utf8');
  const again = p.install();
  assert.match(again.stderr, /already up to date/);
  assert.equal(readFileSync(p.settings, 'utf8'), before);
});

test('a foreign statusLine is kept unless --replace-statusline', (t) => {
  const p = project({
    '.claude/settings.json': JSON.stringify({ statusLine: { type: 'command', command: '~/bin/my-line' } }),
  });
  t.after(p.cleanup);
  const result = p.install();
  assert.match(result.stderr, /kept your existing statusLine; pass --replace-statusline/);
  assert.equal(p.read().statusLine.command, '~/bin/my-line');
  assert.ok(p.read().hooks.SessionStart, 'hooks still installed');
  p.install('--replace-statusline');
  assert.equal(p.read().statusLine.command, `${CMD} statusline`);
  p.install('--no-statusline');
  assert.equal(p.read().statusLine.command, `${CMD} statusline`, '--no-statusline leaves it alone');
});

test('a malformed settings file is an error naming the file, and nothing changes', (t) => {
  for (const [content, code] of [
    ['{"hooks": {', 7],
    ['[1]', 3],
    ['{"hooks": []}', 3],
    ['{"hooks": {"Stop": {}}}', 3],
    ['{"hooks": {"Stop": [7]}}', 3],
  ] as const) {
    const p = project({ '.claude/settings.json': content });
    t.after(p.cleanup);
    const result = p.install();
    assert.equal(result.code, code, `${content}: ${result.stderr}`);
    assert.ok(result.stderr.includes(p.settings), result.stderr);
    assert.equal(readFileSync(p.settings, 'utf8'), content);
  }
});

test('--user writes HOME/.claude (or CLAUDE_CONFIG_DIR); --dry-run writes nothing', (t) => {
  const p = project();
  t.after(p.cleanup);
  const dry = p.install('--user', '--dry-run');
  assert.equal(dry.code, 0);
  assert.ok(JSON.parse(dry.stdout).hooks.SessionStart);
  assert.ok(!existsSync(join(p.dir, 'home')));
  assert.equal(p.install('--user').code, 0);
  assert.ok(JSON.parse(readFileSync(join(p.dir, 'home', '.claude', 'settings.json'), 'utf8')).statusLine);
  assert.ok(!existsSync(p.settings), 'the project settings are untouched');
  const config = join(p.dir, 'cfg');
  baton(['install', 'claude', '--user'], { cwd: p.dir, env: { HOME: join(p.dir, 'home'), CLAUDE_CONFIG_DIR: config } });
  assert.ok(existsSync(join(config, 'settings.json')));
});

test('--remove takes out only baton entries', (t) => {
  const p = project({
    '.claude/settings.json': JSON.stringify({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] },
    }),
  });
  t.after(p.cleanup);
  p.install();
  assert.equal(p.install('--remove').code, 0);
  assert.deepEqual(p.read(), { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] } });
});

test('usage errors exit 2', (t) => {
  const p = project();
  t.after(p.cleanup);
  assert.equal(baton(['install'], { cwd: p.dir }).code, 2);
  assert.equal(baton(['install', 'vim'], { cwd: p.dir }).code, 2);
  assert.equal(p.install('--project', '--user').code, 2);
  assert.equal(p.install('--bogus').code, 2);
  assert.equal(p.install('--command').code, 2);
  assert.ok(!existsSync(p.settings));
  assert.equal(p.install('--command', 'baton').code, 0);
  assert.equal(p.read().statusLine.command, 'baton statusline');
});

test('inside the project the command is relative to $CLAUDE_PROJECT_DIR', (t) => {
  const tree = tempTree({ 'node_modules/baton/bin/baton.js': '', 'node_modules/baton/dist/cli.js': '' });
  t.after(tree.cleanup);
  const bin = join(tree.dir, 'node_modules/baton/bin/baton.js');
  assert.equal(
    defaultCommand(bin, 'project', tree.dir).command,
    'node "$CLAUDE_PROJECT_DIR"/"node_modules/baton/bin/baton.js"',
  );
  assert.equal(
    defaultCommand(join(tree.dir, 'node_modules/baton/dist/cli.js'), 'project', tree.dir).command,
    'node "$CLAUDE_PROJECT_DIR"/"node_modules/baton/bin/baton.js"',
    'cli.js maps to the bin script',
  );
  assert.equal(defaultCommand(bin, 'user', tree.dir).command, `node "${bin}"`);
  // With the package's hook wrapper beside it, the wrapper runs it (and fails closed without Node).
  mkdirSync(join(tree.dir, 'node_modules/baton/plugin/bin'), { recursive: true });
  writeFileSync(join(tree.dir, 'node_modules/baton/plugin/bin/baton'), '');
  assert.equal(
    defaultCommand(bin, 'project', tree.dir).command,
    'sh "$CLAUDE_PROJECT_DIR"/"node_modules/baton/plugin/bin/baton"',
  );
  mkdirSync(join(tree.dir, 'we$ird'));
  writeFileSync(join(tree.dir, 'we$ird', 'baton.js'), '');
  assert.equal(
    defaultCommand(join(tree.dir, 'we$ird', 'baton.js'), 'user', '/').command,
    `node "${tree.dir}/we\\$ird/baton.js"`,
  );
  // The other hosts, each by the way its hooks find the project (docs/hosts.md).
  const wrapper = '"node_modules/baton/plugin/bin/baton"';
  assert.equal(defaultCommand(bin, 'project', tree.dir, 'gemini').command, `sh "$GEMINI_PROJECT_DIR"/${wrapper}`);
  assert.equal(defaultCommand(bin, 'project', tree.dir, 'cursor').command, `sh ./${wrapper}`);
  assert.match(
    defaultCommand(bin, 'project', tree.dir, 'codex').command,
    /^sh "\$\(d=\$PWD; until .*\)"\/"node_modules/,
  );
  assert.equal(defaultCommand(bin, 'project', tree.dir, 'codex').relative, true);
  assert.equal(defaultCommand(bin, 'user', tree.dir, 'codex').relative, false);
});

test('--serve sets env.BATON_SERVE for Claude Code sessions beside the env already there; --remove takes only it out', (t) => {
  const p = project({ '.claude/settings.json': JSON.stringify({ env: { KEEP: 'me' } }) });
  t.after(p.cleanup);
  assert.equal(p.install('--serve').code, 0);
  assert.deepEqual(p.read().env, { KEEP: 'me', BATON_SERVE: '1' });
  assert.match(p.install('--serve').stderr, /already up to date/);
  assert.equal(p.install('--remove').code, 0);
  assert.deepEqual(p.read().env, { KEEP: 'me' });
  const codex = baton(['install', 'codex', '--serve'], { cwd: p.dir, env: { HOME: join(p.dir, 'home') } });
  assert.equal(codex.code, 2);
  assert.match(codex.stderr, /--serve is for claude only/);
});
