import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, ROOT } from '../helpers/cli.js';
import { PLUGIN_CLI } from '../../src/harness/install/hooks.js';
import { tempTree } from '../helpers/fixtures.js';
import { mergeConfig } from '../../src/project/config.js';
import { configEvents, EVENT_NAMES, EVENTS, hostEvents, type HostName } from '../../src/harness/hooks/events.js';
import { PROFILES } from '../../src/project/profiles/registry.js';

// One event registry (src/harness/hooks/events.ts): the installer, the plugin's hooks.json, the host
// adapters and the profiles all derive from it, so adding an event is one entry, not seven edits.
const HOSTS: HostName[] = ['claude', 'codex', 'gemini', 'cursor'];

function expectedEntries(prefix: string): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_NAMES.map((event) => {
      const { matcher, timeout } = EVENTS[event];
      const hooks = [{ type: 'command', command: `${prefix} hook ${event}`, timeout }];
      return [event, [matcher === undefined ? { hooks } : { matcher, hooks }]];
    }),
  );
}

test('the plugin hooks.json registers exactly the registry events, with their matchers and timeouts', () => {
  const file = JSON.parse(readFileSync(join(ROOT, 'plugin', 'hooks', 'hooks.json'), 'utf8'));
  assert.deepEqual(file.hooks, expectedEntries(PLUGIN_CLI), 'plugin/hooks/hooks.json is stale: run npm run generate');
});

test('baton install claude writes exactly the registry events', (t) => {
  const tree = tempTree({ '.git/HEAD': '' });
  t.after(tree.cleanup);
  const r = baton(['install', 'claude', '--project', '--command', 'baton', '--no-statusline', '--dry-run'], {
    cwd: tree.dir,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).hooks, expectedEntries('baton'));
});

test('every host event name of the registry reaches the engine through baton hook; other names exit silently', (t) => {
  // A config that does not parse makes the engine answer every event it is given with a notice,
  // so the answer shows which host event names the adapter passes on.
  const tree = tempTree({ 'baton.config.json': '{"profile": "eneo",' });
  t.after(tree.cleanup);
  const env = { BATON_ROOT: tree.dir, BATON_DEBUG_LOG: join(tree.dir, 'debug.log') };
  for (const host of HOSTS) {
    const names = Object.keys(hostEvents(host));
    assert.ok(names.length > 0);
    for (const name of names) {
      const r = baton(['hook', name, '--host', host], {
        cwd: tree.dir,
        env,
        input: '{"session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}',
      });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /baton hooks are off|denied until it is fixed/, `${host} ${name} should reach the engine`);
    }
    for (const other of ['PostToolUse', 'afterFileEdit', 'Notification', 'AfterTool', 'SubagentStart']) {
      if (names.includes(other)) continue;
      const r = baton(['hook', other, '--host', host], { cwd: tree.dir, env, input: '{}' });
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], `${host} ${other} is ignored on purpose`);
    }
    // A name no host has is a typo in the settings: said, not silently passed.
    for (const other of ['toString', '__proto__', 'pretooluse']) {
      const r = baton(['hook', other, '--host', host], { cwd: tree.dir, env, input: '{}' });
      assert.equal(r.code, 1, `${host} ${other}`);
      assert.match(r.stderr, new RegExp(`unknown event '${other}'`));
    }
  }
});

test('the built-in profiles handle registry events only; a harness profile exactly those its sections turn on', () => {
  for (const [name, front] of Object.entries(PROFILES)) {
    for (const event of front.events)
      assert.ok((EVENT_NAMES as readonly string[]).includes(event), `${name}: ${event}`);
    // The front's list is what lets a hook skip the engine: it must not drift from the profile.
    if (front.kind === 'harness')
      assert.deepEqual(
        [...front.events].sort(),
        configEvents(mergeConfig({}, name) as unknown as Record<string, unknown>).sort(),
        name,
      );
  }
});
