import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fnv1a32 } from '../../src/core/hash.js';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

/** A copy of this checkout's dist/ with no caches in `dir`, and the folder of the build its cli.js runs. */
function installIn(dir: string): { install: string; build: string } {
  const install = join(dir, 'install');
  cpSync(join(ROOT, 'dist'), join(install, 'dist'), { recursive: true, filter: (from) => !from.includes('.cache') });
  // The bundles of the build that dist/cli.js points at (scripts/switch-build.mjs).
  const current = /builds\/([^/]+)\//.exec(readFileSync(join(install, 'dist', 'cli.js'), 'utf8'))?.[1] ?? '';
  return { install, build: join(install, 'dist', 'builds', current) };
}

/** `baton get d.json .a` run by the install's dist/cli.js in `dir`, with `tmp` as its temp folder. */
function getIn(install: string, dir: string, tmp: string) {
  return spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a'], {
    cwd: dir,
    encoding: 'utf8',
    env: cleanEnv({ TMPDIR: tmp }),
  });
}

describe('the V8 code cache of command bundles', () => {
  it('is written beside the bundle, or in a temp folder when the install is read-only, and never breaks a command', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const run = (tmp: string) => getIn(install, dir, tmp);
    const tmpA = join(dir, 'tmp-a');
    mkdirSync(tmpA);
    assert.equal(run(tmpA).stdout, '1\n');
    assert.ok(existsSync(join(build, 'commands', '.cache')), 'cache beside the bundle');
    assert.deepEqual(readdirSync(tmpA), [], 'written beside: no folder left in TMPDIR');
    assert.equal(run(tmpA).stdout, '1\n', 'a cached run answers the same');
    // Accepted, not rejected and rewritten (a rewrite renames a new file over it): the bundle is
    // compiled through vm's binding (bundle-loader.ts), with the cache as vm passes it.
    const cacheFile = () => {
      const [name = ''] = readdirSync(join(build, 'commands', '.cache')).filter((n) =>
        n.endsWith('get.js.' + process.version + '.v8'),
      );
      return statSync(join(build, 'commands', '.cache', name)).ino;
    };
    const written = cacheFile();
    assert.equal(run(tmpA).stdout, '1\n');
    assert.equal(cacheFile(), written, 'the cache is used as it is');
    // A read-only install: the cache folder cannot be created there.
    rmSync(join(build, 'commands', '.cache'), { recursive: true });
    writeFileSync(join(build, 'commands', '.cache'), 'not a folder');
    const tmpB = join(dir, 'tmp-b');
    mkdirSync(tmpB);
    assert.equal(run(tmpB).stdout, '1\n');
    const fallback = join(tmpB, `baton-${process.getuid?.()}`, 'v8-cache');
    assert.ok(existsSync(fallback), "cache in the user's own temp folder");
    const getCaches = () => readdirSync(fallback).filter((name) => name.endsWith('get.js.' + process.version + '.v8'));
    assert.equal(getCaches().length, 1);
    assert.equal(run(tmpB).stdout, '1\n');
    // The bundle replaced (a new mtime, so a new cache name): the old cache there is dropped, as
    // beside the bundle. Its name starts with the bundle path's hash; before, none was ever dropped.
    const later = new Date(statSync(join(build, 'commands', 'get.js')).mtimeMs + 60_000);
    utimesSync(join(build, 'commands', 'get.js'), later, later);
    const [before] = getCaches();
    assert.equal(run(tmpB).stdout, '1\n');
    assert.equal(getCaches().length, 1, 'one cache of get.js in the temp folder');
    assert.notEqual(getCaches()[0], before);
  });

  it('an install cut short (a command bundle or main missing) is one line naming the file and the fix, exit 70', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    // Before, each was Node's stack of an ENOENT and exit 1.
    for (const missing of [join(build, 'commands', 'get.js'), join(build, 'main.js')]) {
      rmSync(missing);
      const r = getIn(install, dir, dir);
      assert.equal(r.status, 70, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `baton: ${missing} cannot be read (ENOENT); reinstall baton\n`);
    }
  });

  it('a lazy chunk missing (the jq engine a get loads for an expression) is the same line, exit 70, not unsafe input', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const missing = join(build, 'lazy', 'jq.js');
    rmSync(missing);
    // A plain path never loads it (src/core/jq/plain-path.ts); an expression does.
    assert.equal(getIn(install, dir, dir).stdout, '1\n');
    const r = spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a + 1'], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ TMPDIR: dir }),
    });
    assert.equal(r.status, 70, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `baton get: ${missing} cannot be read (ENOENT); reinstall baton\n`);
  });

  it("a hook whose engine bundle is missing still denies a gated call (an edit in GREEN), with the failure's line; an ungated one fails as before", (t) => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const cli = (args: string[], input?: string) =>
      spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        input,
        env: cleanEnv({ TMPDIR: dir, CLAUDE_PROJECT_DIR: dir }),
      });
    spawnSync('git', ['init', '-q'], { cwd: dir });
    const task = '.claude/state/current-task.json';
    for (const args of [
      ['init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
      ['set', task, 'tdd_phase', 'GREEN'],
    ])
      assert.equal(cli(args).status, 0);
    const payload = (tool: string, input: object) =>
      JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, cwd: dir });
    const testWrite = payload('Write', { file_path: join(dir, 'backend/tests/test_x.py'), content: 'x' });
    assert.match(cli(['hook', 'PreToolUse'], testWrite).stdout, /"permissionDecision":"deny"/);
    const missing = join(build, 'lazy', 'run-hook.js');
    rmSync(missing);
    // Before, the hook exited 4 (then 70) with the line, which Claude Code takes for a hook error and
    // lets the call through: only the plugin's wrapper made it a deny.
    for (const write of [testWrite, payload('Write', { file_path: join(dir, 'src/a.py'), content: 'x' })]) {
      const r = cli(['hook', 'PreToolUse'], write);
      assert.equal(r.status, 0, r.stderr);
      const answer = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, string> };
      assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(
        answer.hookSpecificOutput.permissionDecisionReason ?? '',
        /run-hook\.js cannot be read \(ENOENT\); reinstall baton/,
      );
    }
    const read = cli(['hook', 'PreToolUse'], payload('Read', { file_path: join(dir, 'src/a.py') }));
    assert.equal(read.status, 70);
    assert.equal(read.stdout, '');
    assert.equal(read.stderr, `baton hook: ${missing} cannot be read (ENOENT); reinstall baton\n`);
  });

  it('a run that failed or only printed help writes a draft, which the first run that succeeds replaces', (t) => {
    // A cache holds the functions its run compiled and is written once: kept as final, a first
    // `get --help` left every later get to compile the command's functions itself.
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const cache = join(build, 'commands', '.cache');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: dir }),
      });
    const caches = () => readdirSync(cache).filter((n) => n.includes('get.js.' + process.version + '.v8'));
    const final = (n: string) => n.endsWith('.v8');
    assert.equal(run('get', '--help').status, 0);
    assert.deepEqual(caches().map(final), [false], 'help only: a draft');
    assert.equal(run('get', 'd.json', '.a +').status, 2);
    assert.deepEqual(caches().map(final), [false], 'a failure keeps the draft');
    const draft = statSync(join(cache, caches()[0] ?? '')).ino;
    assert.equal(run('get', 'd.json', '.b', '--default', 'x').stdout, 'x\n');
    assert.equal(run('get', 'd.json', '.a').stdout, '1\n');
    assert.deepEqual(caches().map(final), [true], 'replaced by the cache proper, the draft dropped');
    assert.notEqual(statSync(join(cache, caches()[0] ?? '')).ino, draft);
    const proper = statSync(join(cache, caches()[0] ?? '')).ino;
    assert.equal(run('get', '--help').status, 0);
    assert.equal(run('get', 'd.json', '.a').stdout, '1\n');
    assert.equal(statSync(join(cache, caches()[0] ?? '')).ino, proper, 'the cache proper is kept');
  });

  it('a hook run for an event nothing handles writes a draft, which the first handled hook replaces', (t) => {
    // Such a run returns before the handlers, so its cache held only the hook front: the first hook
    // after an install is often one (SessionStart where baton is not set up, a Notification).
    const { dir, cleanup } = tempTree({ 'bare/x': '', 'project/baton.config.json': '{"profile": "eneo"}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const cache = join(build, 'commands', '.cache');
    const hook = (cwd: string, event: string, payload: object) =>
      spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), 'hook', event], {
        cwd: join(dir, cwd),
        input: JSON.stringify(payload),
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: dir }),
      });
    const caches = () => readdirSync(cache).filter((n) => n.includes('hook.js.' + process.version + '.v8'));
    const final = (n: string) => n.endsWith('.v8');
    const write = { tool_name: 'Write', tool_input: { file_path: join(dir, 'project', 'a.py'), content: 'x' } };
    const notice = hook('project', 'Notification', { message: 'hi' });
    assert.deepEqual([notice.status, notice.stdout, notice.stderr], [0, '', '']);
    assert.deepEqual(caches().map(final), [false], 'an event baton ignores: a draft');
    assert.equal(hook('bare', 'PreToolUse', write).status, 0);
    assert.deepEqual(caches().map(final), [false], 'a project without baton: the draft kept');
    assert.equal(hook('project', 'PreToolUse', write).status, 0);
    assert.deepEqual(caches().map(final), [true], 'a handled hook: the cache proper, the draft dropped');
    const proper = statSync(join(cache, caches()[0] ?? '')).ino;
    assert.equal(hook('project', 'Notification', {}).status, 0);
    assert.equal(statSync(join(cache, caches()[0] ?? '')).ino, proper, 'the cache proper is kept');
  });

  it('a bundle rewritten in place with the same length runs its new code, not the cached old one', (t) => {
    // V8 checks a cache against the source's length only; the plugin's committed bundle is rewritten
    // in place (plugin/dist), so a rebuild of the same length once ran the old bytecode.
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const plugin = join(dir, 'plugin');
    cpSync(join(ROOT, 'plugin', 'dist'), plugin, { recursive: true, filter: (from) => !from.includes('.cache') });
    // `get` runs from the plugin's shared bundle (scripts/build-plugin.mjs).
    const bundle = join(plugin, 'commands', '_rest.js');
    // Inside the function a loaded bundle is written in (LOADED_BUNDLE, scripts/cli-bundles.mjs).
    const write = (text: string) =>
      writeFileSync(bundle, `(function (exports, require, module, __filename, __dirname) {${text}});`.padEnd(200, ' '));
    write('module.exports={run:async()=>{process.stdout.write("old\\n");return 0}};');
    const run = () =>
      spawnSync(process.execPath, [join(plugin, 'cli.js'), 'get', 'd.json', '.a'], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: dir }),
      }).stdout;
    assert.equal(run(), 'old\n');
    assert.equal(run(), 'old\n', 'from the cache');
    write('module.exports={run:async()=>{process.stdout.write("new\\n");return 0}};');
    assert.equal(run(), 'new\n');
    assert.equal(readdirSync(join(plugin, 'commands', '.cache')).length, 1, 'the old cache is dropped');
  });

  it('main runs through a code cache of its own, beside it, and a main rewritten in place with the same length runs its new code', (t) => {
    // dist/cli.js (src/cli/entry.ts) runs main (builds/<id>/main.js) through the loader's read
    // path; main writes that cache at exit with the loader's rules.
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const run = () => getIn(install, dir, dir);
    assert.equal(run().stdout, '1\n');
    const cacheOf = () =>
      readdirSync(join(build, '.cache')).filter((n) => n.endsWith('-main.js.' + process.version + '.v8'));
    assert.equal(cacheOf().length, 1, "main's cache beside it");
    const written = statSync(join(build, '.cache', cacheOf()[0] ?? '')).ino;
    assert.equal(run().stdout, '1\n');
    assert.equal(statSync(join(build, '.cache', cacheOf()[0] ?? '')).ino, written, 'used as it is');
    // The same length, another command's bundle for get: the cached bytecode would still load get's.
    const main = join(build, 'main.js');
    const text = readFileSync(main, 'utf8');
    assert.ok(text.includes('"get":"commands/get.js"'));
    writeFileSync(main, text.replace('"get":"commands/get.js"', '"get":"commands/set.js"'));
    const moved = run();
    assert.equal(moved.status, 70, moved.stderr);
    assert.match(moved.stderr, /this build's bundle for 'get' does not carry it/);
  });

  // V8 rejects a cache made under other V8 flags. Before, a process with Node flags (a server runs
  // with --max-semi-space-size=2) and one without shared a name: each rejected and rewrote the
  // other's, and every server's exit left the next command and hook compiling main and its bundle.
  it('a process started with Node flags, as a server is, keeps caches of its own: the others are used as they are', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const run = (flags: string[]) =>
      spawnSync(process.execPath, [...flags, join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a'], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: dir }),
      }).stdout;
    const caches = () =>
      new Map(
        [join(build, '.cache'), join(build, 'commands', '.cache')].flatMap((folder) =>
          readdirSync(folder).map((name) => [join(folder, name), statSync(join(folder, name)).ino] as const),
        ),
      );
    assert.equal(run([]), '1\n');
    const plain = caches();
    assert.equal(run(['--max-semi-space-size=2']), '1\n');
    assert.equal(run(['--max-semi-space-size=2']), '1\n');
    const both = caches();
    assert.equal(run([]), '1\n');
    assert.deepEqual(caches(), both, 'each used as it is, none rewritten');
    for (const [file, ino] of plain) assert.equal(both.get(file), ino, `${file} left as it was`);
    assert.equal(both.size, plain.size * 2, "the flagged process's caches beside them");
  });

  /** `baton get d.json .a` with these Node options, and the caches of main and get's bundle by path, with their inodes. */
  function flagRuns(dir: string) {
    const { install, build } = installIn(dir);
    const run = (flags: string[], nodeOptions = '') =>
      spawnSync(process.execPath, [...flags, join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a'], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ TMPDIR: dir, NODE_OPTIONS: nodeOptions }),
      }).stdout;
    const caches = () =>
      new Map(
        [join(build, '.cache'), join(build, 'commands', '.cache')].flatMap((folder) =>
          readdirSync(folder).map((name) => [join(folder, name), statSync(join(folder, name)).ino] as const),
        ),
      );
    return { build, run, caches };
  }

  // The cache's name carried every Node option, a preload's path too: each test run preloading a
  // probe from a temp folder left copies of main's cache and its bundle's (14 of main's in one
  // build). Node's own options set no V8 flag, and V8's hash of its flags is what it checks.
  it("runs given Node's own options (preloads from any path, a title) use the unflagged runs' caches as they are", (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}', 'a/probe.cjs': '', 'b/probe.cjs': '', 'c/probe.mjs': '' });
    t.after(cleanup);
    const { run, caches } = flagRuns(dir);
    assert.equal(run([]), '1\n');
    assert.equal(run([]), '1\n');
    const plain = caches();
    assert.equal(run(['-r', join(dir, 'a', 'probe.cjs')]), '1\n');
    assert.equal(run([`--require=${join(dir, 'b', 'probe.cjs')}`, '--title=baton-probe']), '1\n');
    assert.equal(run(['--import', join(dir, 'c', 'probe.mjs')]), '1\n');
    assert.equal(run([], `--require ${join(dir, 'a', 'probe.cjs')}`), '1\n');
    assert.equal(run([]), '1\n');
    assert.deepEqual(caches(), plain, 'no cache added, none rewritten');
  });

  // NODE_OPTIONS did not name a cache: a V8 flag given there (as a user's shell may, --max-semi-space-size=2 as a server is given) made caches V8
  // rejected in every other process, each kind rewriting the other's at every exit.
  it('a V8 flag given on the command line or in NODE_OPTIONS names caches of its own, which alternating runs never rewrite', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}', 'probe.cjs': '' });
    t.after(cleanup);
    const { run, caches } = flagRuns(dir);
    assert.equal(run([]), '1\n');
    assert.equal(run([], '--max-semi-space-size=2'), '1\n');
    assert.equal(run(['--stack-size=900']), '1\n');
    const each = caches();
    assert.equal(each.size, 6, 'main and get: one cache each for no flag, --max-semi-space-size=2, --stack-size=900');
    for (let round = 0; round < 2; round++) {
      assert.equal(run([], '--max-semi-space-size=2'), '1\n');
      assert.equal(run([]), '1\n');
      assert.equal(run(['--stack-size=900', '-r', join(dir, 'probe.cjs')]), '1\n');
      assert.equal(run(['--max-semi-space-size=2']), '1\n');
    }
    assert.deepEqual(caches(), each, 'each read by its own flags, none rejected and rewritten');
  });

  it("a rebuilt bundle's caches of every flag are dropped when its new cache is written", (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { build, run } = flagRuns(dir);
    assert.equal(run([]), '1\n');
    assert.equal(run(['--max-lazy']), '1\n');
    const getCaches = () => readdirSync(join(build, 'commands', '.cache')).filter((name) => name.includes('-get.js.'));
    assert.equal(getCaches().length, 2);
    const later = new Date(statSync(join(build, 'commands', 'get.js')).mtimeMs + 60_000);
    utimesSync(join(build, 'commands', 'get.js'), later, later);
    assert.equal(run([]), '1\n');
    assert.equal(getCaches().length, 1, "the old build's caches gone, flagged or not");
  });

  it('a cache planted for main in a temp folder other users may write is never run', (t) => {
    // Main's cache is looked for in the user's temp folder when the install has none beside it (a
    // read-only install). A cache is code: one made from other source of the same length is
    // accepted by V8 and runs instead of main, so only a folder of this user's alone is read.
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    writeFileSync(join(build, '.cache'), 'not a folder'); // nothing beside main: the temp folder is looked at
    const tmp = join(dir, 'tmp');
    const own = join(tmp, `baton-${process.getuid?.()}`);
    const caches = join(own, 'v8-cache');
    mkdirSync(caches, { recursive: true });
    chmodSync(own, 0o700);
    const main = join(build, 'main.js');
    const { size, mtimeMs } = statSync(main);
    plantMainCache(main, join(caches, `${fnv1a32(main)}-${size}-${Math.floor(mtimeMs)}-main.js.${process.version}.v8`));
    const run = () => getIn(install, dir, tmp).stdout;
    chmodSync(caches, 0o777);
    assert.equal(run(), '1\n', 'a folder others may write is not read');
    chmodSync(own, 0o770);
    chmodSync(caches, 0o700);
    assert.equal(run(), '1\n');
    // The same file in a folder of this user's alone is read: what the refusals above kept out.
    chmodSync(own, 0o700);
    assert.equal(run(), 'planted\n');
  });

  // Beside main, in the install: a `.cache` made under umask 002 was group-writable, and so was each
  // cache written in it, which was read whoever wrote it. Before, the planted cache below ran.
  it('a cache beside main that others may write is never run', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    t.after(cleanup);
    const { install, build } = installIn(dir);
    const run = () => getIn(install, dir, dir).stdout;
    assert.equal(run(), '1\n');
    const main = join(build, 'main.js');
    const [name = ''] = readdirSync(join(build, '.cache')).filter((n) => n.endsWith(`-main.js.${process.version}.v8`));
    const cache = join(build, '.cache', name);
    assert.equal(statSync(cache).mode & 0o022, 0, 'written for this user alone to write');
    for (const mode of [0o664, 0o646]) {
      plantMainCache(main, cache);
      chmodSync(cache, mode);
      assert.equal(run(), '1\n', `a cache of mode ${mode.toString(8)} is not read`);
    }
    // The same file, this user's alone, is read: what the refusals above kept out.
    plantMainCache(main, cache);
    chmodSync(cache, 0o644);
    assert.equal(run(), 'planted\n');
  });
});

/** A V8 code cache at `at` made for other code of main's length, which V8 accepts for main's source. */
function plantMainCache(main: string, at: string): void {
  // Written as the loader compiles a bundle: inside the function Node wraps a module in.
  const planted =
    '(function (exports, require, module, __filename, __dirname) {process.stdout.write("planted\\n");module.exports.cacheAtExit=()=>{};});'.padEnd(
      statSync(main).size,
      ' ',
    );
  const make = spawnSync(
    process.execPath,
    [
      '-e',
      `const { Script } = require('node:vm');
      const script = new Script(process.argv[1], { filename: process.argv[2] });
      script.runInThisContext()({}, require, { exports: {} }, '', ''); // its function compiled into the cache too
      require('node:fs').writeFileSync(process.argv[3], script.createCachedData());`,
      planted,
      main,
      at,
    ],
    { encoding: 'utf8', env: cleanEnv() },
  );
  assert.equal(make.status, 0, make.stderr);
}
