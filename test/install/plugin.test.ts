import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { hookEntries, PLUGIN_CLI } from '../../src/harness/install/hooks.js';

// The plugin's files agree with the source of truth, and its bundled CLI runs away from the repo.
const PLUGIN = join(ROOT, 'plugin');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

test('hooks.json is the committed copy of the hook table', () => {
  const file = json(join(PLUGIN, 'hooks', 'hooks.json'));
  assert.deepEqual(
    file.hooks,
    hookEntries(PLUGIN_CLI),
    'regenerate plugin/hooks/hooks.json from src/harness/install/hooks.ts',
  );
  for (const entries of Object.values<{ hooks: { timeout: number }[] }[]>(file.hooks)) {
    for (const hook of entries.flatMap((entry) => entry.hooks))
      assert.ok(Number.isInteger(hook.timeout) && hook.timeout <= 300, 'timeouts are seconds');
  }
});

test('plugin.json does not name hooks/hooks.json again; the marketplace points at ./plugin', () => {
  const manifest = json(join(PLUGIN, '.claude-plugin', 'plugin.json'));
  assert.match(manifest.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.equal(
    manifest.hooks,
    undefined,
    'hooks/hooks.json loads automatically; naming it twice duplicates every hook',
  );
  const market = json(join(ROOT, '.claude-plugin', 'marketplace.json'));
  const entry = market.plugins.find((plugin: { name: string }) => plugin.name === manifest.name);
  assert.equal(entry.source, './plugin');
  assert.equal(entry.version, manifest.version);
  assert.equal(manifest.version, json(join(ROOT, 'package.json')).version);
});

test('skills status, doctor, history and gate have a name and a description', () => {
  for (const name of ['status', 'doctor', 'history', 'gate']) {
    const text = readFileSync(join(PLUGIN, 'skills', name, 'SKILL.md'), 'utf8');
    assert.match(text, new RegExp(`^---\\nname: ${name}\\ndescription: .{20,}`));
  }
});

test('the bundled CLI runs from a copy outside the repo (as in the plugin cache)', (t) => {
  assert.ok(existsSync(join(PLUGIN, 'dist', 'cli.js')), 'plugin/dist is missing: run npm run build');
  const tree = tempTree();
  t.after(tree.cleanup);
  cpSync(PLUGIN, join(tree.dir, 'plugin'), { recursive: true });
  const env = cleanEnv({ NO_COLOR: '1' });
  const line = spawnSync(process.execPath, [join(tree.dir, 'plugin', 'dist', 'cli.js'), 'statusline'], {
    cwd: tree.dir,
    input: '{"model":{"display_name":"M"}}',
    encoding: 'utf8',
    env,
  });
  assert.equal(line.status, 0, line.stderr);
  assert.match(line.stdout, /^\[M\] /);
  const wrapper = spawnSync(join(tree.dir, 'plugin', 'bin', 'baton'), ['--version'], { encoding: 'utf8', env });
  assert.equal(wrapper.status, 0, wrapper.stderr);
  assert.match(wrapper.stdout, /^baton /);
});
