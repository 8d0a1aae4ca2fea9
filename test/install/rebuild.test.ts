import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { baton, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { setTimeout as sleep } from 'node:timers/promises';

// Hooks that `baton install claude` writes run the checkout's bin/baton.js, and a rebuild (`npm
// test`, `npm install`) can come at any moment. A process started before it must finish from its
// own build, even when it loads a lazily required bundle after the rebuild.
test('hooks run from a checkout keep answering while it rebuilds', async (t) => {
  const tree = tempTree({ 'project/baton.config.json': JSON.stringify({ profile: 'eneo' }) });
  t.after(tree.cleanup);
  const checkout = join(tree.dir, 'checkout');
  for (const part of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'bin',
    'scripts',
    'src',
    'schemas',
    'plugin',
  ]) {
    cpSync(join(ROOT, part), join(checkout, part), {
      recursive: true,
      // The build's generated modules are left out; the committed generated types are source.
      filter: (from) =>
        !from.includes(`${join(ROOT, 'plugin', 'dist')}`) &&
        (!from.includes('src/generated/') || from.includes('src/generated/types')),
    });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  const build = () => {
    const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: checkout, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  };
  build();
  const project = join(tree.dir, 'project');
  const env = { BATON_ROOT: project };
  assert.equal(baton(['task', 'init', '--', 'demo', 'deep', '4', 'none', 'appends'], { cwd: project, env }).code, 0);
  assert.equal(baton(['task', 'phase-set', 'GREEN'], { cwd: project, env }).code, 0);

  // Hooks keep firing while the checkout rebuilds; each one must still load its lazily required
  // bundles (the policy engine, dist/.../lazy) and answer.
  const rebuild = spawn(process.execPath, ['scripts/build.mjs'], { cwd: checkout, stdio: 'ignore' });
  const rebuilt = new Promise<number | null>((resolve) => rebuild.on('close', resolve));
  while (rebuild.exitCode === null && readdirSync(join(checkout, 'dist', 'builds')).length < 2) await sleep(10);
  const payload = JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(project, 'tests', 'test_api.py'), content: 'x' },
  });
  let during = 0;
  while (rebuild.exitCode === null) {
    // Asynchronously, so the loop sees the rebuild end.
    const hook = await run(join(checkout, 'bin', 'baton.js'), ['hook', 'PreToolUse'], project, env, payload);
    assert.equal(hook.code, 0, hook.stderr);
    assert.equal(
      JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision,
      'deny',
      `the engine ran and denied the test edit in GREEN: ${hook.stderr}`,
    );
    during++;
  }
  assert.equal(await rebuilt, 0);
  assert.ok(during > 0, 'no hook ran during the rebuild');
  assert.equal(readdirSync(join(checkout, 'dist', 'builds')).length, 2, 'the replaced build is kept');
  const after = spawnSync(process.execPath, [join(checkout, 'bin', 'baton.js'), '--version'], {
    cwd: project,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  assert.equal(after.status, 0, after.stderr);
});

function run(
  script: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
