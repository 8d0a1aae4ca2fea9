/**
 * Two real builds of one version (scripts/build-id.mjs): a server answers hooks and CLI commands of
 * its own build only, and a start of the other build replaces it. Before, both builds said
 * 0.1.0, so after a rebuild or a plugin updated from git the old server went on answering with the
 * old code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { answered, greenProject, health, serveFile, TASK, writePayload } from './serve-process.js';

/** The plugin (bin/, lib/, and dist/ built by scripts/build-plugin.mjs) from a copy of this checkout's sources. */
function buildFrom(src: string, out: string): string {
  for (const part of ['bin', 'lib']) cpSync(join(ROOT, 'plugin', part), join(out, part), { recursive: true });
  const built = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { buildPlugin } = await import('./scripts/build-plugin.mjs'); await buildPlugin(process.argv[1]);",
      join(out, 'dist'),
    ],
    { cwd: src, encoding: 'utf8' },
  );
  assert.equal(built.status, 0, built.stderr);
  return readFileSync(join(out, 'dist', 'build-id'), 'utf8').trim();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Until `done` holds (a server starting or stopping in the background). The bound only ends a
 * broken run, so it is wide: a minute failed a loaded machine's slow start as a wrong answer.
 */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; !done(); i++) {
    assert.ok(i < 12_000, `${what}: still not after ten minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('two builds of one version', () => {
  it("the second build's start replaces the first one's server, which answers none of its hooks or CLI commands", async (t) => {
    const src = tempDir('baton-builds-');
    for (const name of ['src', 'schemas', 'scripts', 'package.json', 'package-lock.json'])
      cpSync(join(ROOT, name), join(src, name), { recursive: true });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(src, 'node_modules'));
    const one = join(src, 'one');
    const two = join(src, 'two');
    const ids = [buildFrom(src, one)];
    appendFileSync(join(src, 'src', 'cli', 'main.ts'), '// a change that makes another build of the same version\n');
    ids.push(buildFrom(src, two));
    assert.notEqual(ids[0], ids[1]);

    const p = greenProject();
    const pids = new Set<number>();
    t.after(async () => {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
      await until(() => [...pids].every((pid) => !alive(pid)), 'the servers stop');
      p.cleanup();
    });
    const run = (build: string, args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(build, 'dist', 'cli.js'), ...args], {
        cwd: p.dir,
        env: cleanEnv(env),
        encoding: 'utf8',
      });
    const payload = writePayload(p.dir, 'tests/test_gate.py');
    const hook = (build: string, env: Record<string, string> = {}) =>
      spawnSync('sh', [join(build, 'bin', 'baton'), 'hook', 'PreToolUse'], {
        cwd: p.dir,
        env: cleanEnv({ CLAUDE_PROJECT_DIR: p.dir, ...env }),
        input: payload,
        encoding: 'utf8',
      }).stdout;
    const cli = async () => (await health<{ cli: { ran: number; refused: number } }>(p.dir)).cli;
    const phase = (build: string) => run(build, ['get', TASK, '.tdd_phase']).stdout;

    assert.equal(run(one, ['serve', '--detach']).status, 0);
    const first = serveFile(p.dir);
    pids.add(first.pid);
    assert.equal(first.build, ids[0]);
    // Its own build's hook and CLI command: answered by it.
    const hooks = await answered(p.dir);
    assert.match(hook(one), /"permissionDecision":"deny".*gate-green/);
    assert.equal(await answered(p.dir), hooks + 1);
    assert.equal(phase(one), '"GREEN"\n');
    assert.deepEqual(await cli(), { ran: 1, refused: 0 });

    // The other build's: judged and run in process, the same answers.
    assert.match(hook(two), /"permissionDecision":"deny".*gate-green/);
    assert.equal(await answered(p.dir), hooks + 1, 'the first server did not judge the second build');
    assert.equal(phase(two), '"GREEN"\n');
    assert.deepEqual(await cli(), { ran: 1, refused: 0 }, 'not even asked');
    // A serve.json that names the second build for the first server: the server refuses it.
    const text = readFileSync(join(p.dir, '.baton', 'serve.json'), 'utf8');
    writeFileSync(join(p.dir, '.baton', 'serve.json'), text.replace(ids[0]!, ids[1]!));
    assert.equal(phase(two), '"GREEN"\n');
    assert.deepEqual(await cli(), { ran: 1, refused: 1 });
    writeFileSync(join(p.dir, '.baton', 'serve.json'), text);

    // The second build's start (as its SessionStart runs it) stops the first server and takes its place.
    assert.equal(run(two, ['serve', '--detach']).status, 0);
    const second = serveFile(p.dir);
    pids.add(second.pid);
    assert.notEqual(second.pid, first.pid);
    assert.equal(second.build, ids[1]);
    await until(() => !alive(first.pid), 'the first server stops');
    assert.match(hook(two), /"permissionDecision":"deny".*gate-green/);
    assert.equal(await answered(p.dir), 1, 'the second server answered its build');

    // A hook of the first build with BATON_SERVE (the plugin starts the server): judged in process,
    // and a server of its build replaces the second in the background.
    assert.match(hook(one, { BATON_SERVE: '1' }), /"permissionDecision":"deny".*gate-green/);
    await until(() => {
      try {
        return serveFile(p.dir).build === ids[0];
      } catch {
        return false;
      }
    }, 'a server of the first build takes over');
    pids.add(serveFile(p.dir).pid);
    await until(() => !alive(second.pid), 'the second server stops');
  });
});
