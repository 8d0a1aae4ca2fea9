import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CLI, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { startServe } from '../serve/serve-process.js';
import { allCommands } from '../../src/cli/definitions.js';

// `baton get` should cost little more than a bare Node start (docs/benchmarks.md, "Start-up").
// Timing belongs in npm run bench; what a test can check is what the process loads. A preload
// records, at exit, the CommonJS modules it required (only bin/baton.js and the entry: main and
// the bundles are loaded through the code cache), the bundles and caches it opened, and Node's
// builtin modules beyond what a bare start with the same preload loads.
const PROBE = `
const fs = require('node:fs');
const opened = [];
const open = fs.openSync;
fs.openSync = function (path, ...rest) { opened.push(String(path)); return open.call(this, path, ...rest); };
const called = new Set();
const watch = (owner, name, label) => {
  const real = owner[name];
  owner[name] = function (...args) { called.add(label); return real.apply(this, args); };
};
watch(Buffer.prototype, 'subarray', 'Buffer subarray');
watch(require('node:path'), 'relative', 'path.relative');
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
  fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify({ required: Object.keys(require.cache), opened, builtins, called: [...called] }));
});
`;

interface Probe {
  required: string[];
  opened: string[];
  builtins: string[];
  /** Which of some Node functions, each compiled on its first call, the process called. */
  called: string[];
}

/** This checkout's files among `paths`, relative to it, with the build's id and a cache's name made generic. */
const ours = (paths: string[]) =>
  paths
    .filter((path) => path.startsWith(ROOT))
    .map((path) =>
      relative(ROOT, path)
        .replace(/builds\/[^/]+\//, 'builds/ID/')
        .replace(/\.cache\/[^/]+$/, '.cache/CACHE'),
    );

/** A folder with d.json and the probe, and a run of node with the probe and these arguments there. */
function probeFolder(t: TestContext): {
  dir: string;
  probe: (args: string[]) => Probe;
  warm: (args: string[]) => void;
} {
  const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}', 'probe.cjs': PROBE, 'empty.js': '' });
  t.after(cleanup);
  const out = join(dir, 'probe.json');
  const probe = (args: string[]): Probe => {
    const r = spawnSync(process.execPath, ['-r', join(dir, 'probe.cjs'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ PROBE_OUT: out }),
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(out, 'utf8')) as Probe;
  };
  // Without the probe, as a user's process runs: it writes the code caches if this build has none
  // yet, which the probe's runs read (a preload sets no V8 flag, so they share them: code-cache.ts).
  const warm = (args: string[]) => {
    const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: cleanEnv() });
    assert.equal(r.status, 0, r.stderr);
  };
  return { dir, probe, warm };
}

test('baton get requires only its entry, opens only main, its own bundle and their caches, and loads no builtin', (t) => {
  const { dir, probe, warm } = probeFolder(t);
  // A bare start that runs a file, as baton does: `node -e` loads more (vm, module) than that.
  const bare = probe([join(dir, 'empty.js')]);
  warm([CLI, 'get', 'd.json', '.a']);
  const get = probe([CLI, 'get', 'd.json', '.a']);

  // A hop more (a file dist/cli.js requires) costs a resolve, a realpath walk and a package.json
  // lookup; main is run through its code cache (src/cli/entry.ts), not required.
  assert.deepEqual(ours(get.required.filter((path) => path !== join(dir, 'probe.cjs'))), [
    'bin/baton.js',
    'dist/cli.js',
  ]);
  assert.deepEqual(ours(get.opened), [
    'dist/builds/ID/main.js',
    'dist/builds/ID/.cache/CACHE',
    'dist/builds/ID/commands/get.js',
    'dist/builds/ID/commands/.cache/CACHE',
  ]);
  // vm (~2.4 M instructions: the bundle is compiled through its binding, bundle-loader.ts; vm
  // only under coverage), os (the temp folder's tmpdir: only a code-cache miss needs it; a write
  // names its host through the os binding) costs 0.2-0.4 ms, module ~0.5 ms; util (parseArgs),
  // crypto or child_process, each loaded at start, cost a process 0.5-5 ms.
  const extra = get.builtins.filter((name) => !bare.builtins.includes(name));
  assert.deepEqual(extra.filter(notCoverage), [], `builtins loaded beyond a bare start: ${extra.join(', ')}`);
  // Each Node function a process calls costs its compile the first time: subarray and its
  // adjustOffset ~0.2 M instructions (the document is decoded from the buffer it was read into),
  // path.relative ~0.45 M (a path inside the project is sliced: src/fs/confine.ts).
  assert.deepEqual(get.called, []);

  // Where process.binding() would warn (DEP0111), node:vm runs the bundle: the same answer, no warning.
  const r = spawnSync(process.execPath, ['--pending-deprecation', CLI, 'get', 'd.json', '.a'], {
    cwd: dir,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, '1\n', '']);
  assert.ok(probe(['--pending-deprecation', CLI, 'get', 'd.json', '.a']).builtins.includes('vm'));
});

test("the CLI's files take Node's builtins from process.getBuiltinModule, not require (Module._load); on a Node without it (before 20.16), from require", (t) => {
  const { dir, cleanup } = tempTree({
    'd.json': '{"a":1}',
    // Records each request require() passes to Module._load once the CLI starts (its own entry first).
    'loads.cjs': `const Module = require('node:module');
      const load = Module._load;
      const seen = [];
      Module._load = function (request, ...rest) { seen.push(request); return load.call(this, request, ...rest); };
      process.on('exit', () => {
        const text = JSON.stringify(seen); // before this preload's own require below
        require('node:fs').writeFileSync(process.env.PROBE_OUT, text);
      });`,
    'old-node.cjs': 'delete process.getBuiltinModule;',
  });
  t.after(cleanup);
  const out = join(dir, 'loads.json');
  const run = (preloads: string[], args: string[]) => {
    const r = spawnSync(process.execPath, [...preloads.flatMap((p) => ['-r', join(dir, p)]), CLI, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ PROBE_OUT: out }),
    });
    assert.deepEqual([r.status, r.stderr], [0, '']);
    return {
      stdout: r.stdout,
      builtins: (JSON.parse(readFileSync(out, 'utf8')) as string[]).filter((id) => id.startsWith('node:')),
    };
  };
  // A require of a builtin goes through Module._load, ~28 K instructions a call: esbuild writes one
  // for each module that imports one, 60 in a get and more in an update (docs/benchmarks.md).
  for (const args of [['get', 'd.json', '.a'], ['update', 'd.json', '.a += 1'], ['--version']]) {
    run(['loads.cjs'], args); // writes the code caches if this build has none yet
    assert.deepEqual(run(['loads.cjs'], args).builtins, [], args.join(' '));
  }
  // Node 20.0-20.15, which the package allows: the same answers, each builtin through require.
  const old = run(['old-node.cjs', 'loads.cjs'], ['get', 'd.json', '.a']);
  assert.equal(old.stdout, '3\n'); // 1, and the two updates above
  assert.ok(old.builtins.includes('node:fs'), old.builtins.join(', '));
});

test("a command's bundle carries its own definition, not every command's (but serve's, which runs them all); '_main' (help, unknown commands) every one", (t) => {
  const { probe } = probeFolder(t);
  // Each definition's text (usage, options, help) is bundle the command loads in every run:
  // every command's was 19 KB of get.js, ~0.6 M instructions of each get (docs/benchmarks.md).
  const bundleOf = (args: string[]) => {
    probe([CLI, ...args]); // writes the code caches if this build has none yet
    const file = probe([CLI, ...args]).opened.find((path) => /\/commands\/[^/]+\.js$/.test(path));
    assert.ok(file, `a bundle was opened for ${args.join(' ')}`);
    return readFileSync(file, 'utf8');
  };
  const carried = (text: string) =>
    allCommands()
      .filter((def) => text.includes(def.summary))
      .map((def) => def.name);
  assert.deepEqual(carried(bundleOf(['get', 'd.json', '.a'])), ['get']);
  assert.deepEqual(carried(bundleOf(['show', '--help'])), ['show']);
  assert.deepEqual(carried(bundleOf(['history', '--help'])), ['history']);
  // Every other command's bundle alike (update.js and hook.js, each a process of a session's hot
  // path, carried every one until 2026-12-02 18:00: ~0.6-0.7 M instructions of each), but serve's:
  // a server runs any command a CLI hands it (serve/cli-forward.ts).
  for (const { name } of allCommands())
    if (!['get', 'show', 'history', 'serve'].includes(name))
      assert.deepEqual(carried(bundleOf([name, '--help'])), [name], name);
  assert.deepEqual(
    carried(bundleOf(['--version'])),
    allCommands().map((def) => def.name),
  );
});

test('baton get of a plain path never loads the jq engine; an expression that needs it loads its bundle then, and an update carries it', (t) => {
  const { probe, warm } = probeFolder(t);
  const run = (args: string[]) => {
    warm([CLI, ...args]);
    return ours(probe([CLI, ...args]).opened).filter((path) => !path.startsWith('dist/builds/ID/main.js'));
  };
  const engine = ['dist/builds/ID/lazy/jq.js', 'dist/builds/ID/lazy/.cache/CACHE'];
  // The engine is most of what the get bundle held (docs/benchmarks.md): a plain path (.a, ."k",
  // .a[0]) is read without it (src/core/jq/plain-path.ts).
  for (const expr of ['.', '.a', '."a"', '.["b"][0]'])
    assert.deepEqual(
      run(['get', 'd.json', expr]).filter((path) => path.includes('lazy/')),
      [],
      expr,
    );
  for (const expr of ['.a + 1', '.a | .', '(.a)', '.a?'])
    assert.deepEqual(
      run(['get', 'd.json', expr]).filter((path) => path.includes('lazy/')),
      engine,
      expr,
    );
  // Every update runs the engine: its bundle carries it (a bundle more to load costs a write).
  assert.deepEqual(
    run(['update', 'd.json', '.a += 1']).filter((path) => path.includes('lazy/')),
    [],
  );
});

test('the commands that only read (get, show, history) carry no lock and load none: a read takes no lock; an update carries it', (t) => {
  const { probe } = probeFolder(t);
  const bundleOf = (args: string[]) => {
    probe([CLI, ...args]); // writes the code caches if this build has none yet
    const opened = probe([CLI, ...args]).opened;
    const file = opened.find((path) => /\/commands\/[^/]+\.js$/.test(path));
    assert.ok(file, `a bundle was opened for ${args.join(' ')}`);
    return { text: readFileSync(file, 'utf8'), lazy: ours(opened).filter((path) => path.includes('lazy/')) };
  };
  // Text of the lock's own (src/fs/lock.ts, its timeout's message). Its 35 top-level names were a
  // tenth of get.js's, each set up and named in the code cache at every get (docs/benchmarks.md).
  const lock = 'waiting for the lock on';
  for (const args of [
    ['get', 'd.json', '.a'],
    ['history', 'd.json'],
    ['show', '--help'],
  ]) {
    const { text, lazy } = bundleOf(args);
    assert.ok(!text.includes(lock), `${args[0]}'s bundle carries the lock`);
    assert.deepEqual(lazy, [], args.join(' '));
  }
  // A write takes the lock every time: inline, no second bundle to load.
  const update = bundleOf(['update', 'd.json', '.a += 1']);
  assert.ok(update.text.includes(lock));
  assert.deepEqual(update.lazy, []);
});

test("the plugin's baton get (its shared bundle of every command but the hot ones) sets up only get: no other command's modules, and no builtin beyond a bare start", (t) => {
  const { dir, probe } = probeFolder(t);
  const plugin = join(ROOT, 'plugin', 'dist', 'cli.js');
  const bare = probe([join(dir, 'empty.js')]);
  for (const args of [['get', 'd.json', '.a'], ['--version']]) {
    probe([plugin, ...args]); // writes the code cache if the bundle has none yet
    // Every command module of _rest set up at load ran each one's top level: node:crypto (the
    // run bus, the work board), node:child_process (run, the sandbox) among them, 3x the
    // instructions of a get from its own bundle (docs/benchmarks.md).
    const extra = probe([plugin, ...args]).builtins.filter((name) => !bare.builtins.includes(name));
    assert.deepEqual(
      extra.filter(notCoverage),
      [],
      `baton ${args[0]}: builtins loaded beyond a bare start: ${extra.join(', ')}`,
    );
  }
});

/** Under coverage (NODE_V8_COVERAGE, as CI may run) the loader takes node:vm, which registers source maps. */
const notCoverage = (name: string) => !(name === 'vm' && process.env.NODE_V8_COVERAGE);

test('baton get handed to a running baton serve opens only main and its code cache, no bundle, and loads no builtin (no node:net)', async (t) => {
  const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}', 'probe.cjs': PROBE, 'empty.js': '' });
  t.after(cleanup);
  const server = await startServe(dir);
  t.after(() => server.stop());
  const out = join(dir, 'probe.json');
  const probe = (args: string[]): Probe & { stdout: string } => {
    const r = spawnSync(process.execPath, ['-r', join(dir, 'probe.cjs'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ PROBE_OUT: out }),
    });
    assert.equal(r.status, 0, r.stderr);
    return { ...(JSON.parse(readFileSync(out, 'utf8')) as Probe), stdout: r.stdout };
  };
  const bare = probe([join(dir, 'empty.js')]);
  probe([CLI, 'get', 'd.json', '.a']); // writes main's code cache if this build has none yet
  const get = probe([CLI, 'get', 'd.json', '.a']);
  assert.equal(get.stdout, '1\n');
  assert.deepEqual(ours(get.required), ['bin/baton.js', 'dist/cli.js']);
  // The client is part of main (main.ts says why); the get bundle would mean it ran in process.
  assert.deepEqual(ours(get.opened), ['dist/builds/ID/main.js', 'dist/builds/ID/.cache/CACHE']);
  const extra = get.builtins.filter((name) => !bare.builtins.includes(name));
  assert.deepEqual(extra.filter(notCoverage), [], `builtins loaded beyond a bare start: ${extra.join(', ')}`);
});

test("a write names its host in the lock through Node's os binding, without node:os; where the binding would warn, node:os answers, also on a Node without process.getBuiltinModule (before 20.16), from the CLI and the library", (t) => {
  const { dir, cleanup } = tempTree({
    'd.json': '{"a":1}',
    'probe.cjs': PROBE,
    // Node 20.0-20.15 have no process.getBuiltinModule; the package allows them.
    'old-node.cjs': 'delete process.getBuiltinModule;',
  });
  t.after(cleanup);
  const out = join(dir, 'probe.json');
  const library = `import { openDoc } from ${JSON.stringify(join(ROOT, 'dist', 'index.mjs'))};
    await openDoc('d.json', { cwd: ${JSON.stringify(dir)}, env: { BATON_ROOT: ${JSON.stringify(dir)} } }).update('.a += 1');`;
  // The first run of a build may miss its code cache, whose temp folder is node:os's tmpdir.
  spawnSync(process.execPath, [CLI, 'update', 'd.json', '.a += 1'], { cwd: dir, env: cleanEnv() });
  let writes = 1;
  for (const flags of [[], ['--pending-deprecation']])
    for (const preload of [[], ['-r', join(dir, 'old-node.cjs')]]) {
      for (const args of [
        [CLI, 'update', 'd.json', '.a += 1'],
        ['--input-type=module', '-e', library],
      ]) {
        const r = spawnSync(process.execPath, [...flags, ...preload, '-r', join(dir, 'probe.cjs'), ...args], {
          cwd: dir,
          encoding: 'utf8',
          env: cleanEnv({ PROBE_OUT: out }),
        });
        assert.deepEqual([r.status, r.stderr], [0, ''], `${flags.join(' ')} ${preload.join(' ')} ${args.join(' ')}`);
        writes++;
        const { builtins } = JSON.parse(readFileSync(out, 'utf8')) as Probe;
        assert.equal(builtins.includes('os'), flags.length > 0, `node:os loaded: ${flags.join(' ')} ${args[0]}`);
      }
    }
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')), { a: 1 + writes });
});

// Node compiles each of its own functions on a process's first call to it (a bare start has
// compiled none of these), so a function the write path calls only out of habit costs every
// `update` its compile: 0.05-0.7 M instructions each, 3.5 M in all (docs/benchmarks.md). The
// probe records which of them a run called; the write must still happen, with its history.
const HABITS_PROBE = `
const called = new Set();
const watch = (owner, name, label, when = () => true) => {
  const real = owner[name];
  owner[name] = function (...args) { if (when(args)) called.add(label); return real.apply(this, args); };
};
watch(process, 'nextTick', 'process.nextTick (the tick queue, async hooks, rejection checks)');
watch(globalThis, 'clearInterval', 'clearInterval');
watch(globalThis, 'clearTimeout', 'clearTimeout');
watch(require('node:path'), 'relative', 'path.relative');
watch(require('node:fs'), 'statSync', 'fs.statSync');
watch(Buffer, 'concat', 'Buffer.concat');
watch(Buffer, 'byteLength', 'Buffer.byteLength');
watch(Buffer, 'alloc', 'Buffer.alloc');
watch(Buffer.prototype, 'subarray', 'subarray');
watch(Buffer, 'from', 'Buffer.from with an encoding (getEncodingOps)', (args) => typeof args[0] === 'string' && args[1] !== undefined);
watch(Buffer.prototype, 'toString', 'toString with an encoding (getEncodingOps)', (args) => args[0] !== undefined);
process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify([...called])));
`;

test("a CLI update of a task document (a mirror, history, the lock) calls none of Node's functions it only called out of habit", (t) => {
  const { dir, cleanup } = tempTree({ 'habits.cjs': HABITS_PROBE });
  t.after(cleanup);
  const env = cleanEnv({ BATON_ROOT: dir });
  const init = ['init', 'task.json', '--schema', 'eneo-task', '--arg', 'slug', 's', '--arg', 'lane', 'deep'];
  assert.equal(spawnSync(process.execPath, [CLI, ...init], { cwd: dir, env }).status, 0);
  const expr = '.wave_status["2"] = "in_progress" | .counter += 1';
  // The first update may miss the code cache and write it (the temp folder, the cache's name).
  assert.equal(spawnSync(process.execPath, [CLI, 'update', 'task.json', expr], { cwd: dir, env }).status, 0);
  const out = join(dir, 'called.json');
  const r = spawnSync(process.execPath, ['-r', join(dir, 'habits.cjs'), CLI, 'update', 'task.json', expr], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, PROBE_OUT: out },
  });
  assert.deepEqual([r.status, r.stderr], [0, '']);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), []);
  const doc = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8')) as { counter: number; wave_status: object };
  assert.deepEqual([doc.counter, doc.wave_status], [2, { '2': 'in_progress' }]);
  const history = spawnSync(process.execPath, [CLI, 'history', 'task.json'], { cwd: dir, encoding: 'utf8', env });
  assert.equal(history.stdout.trim().split('\n').length, 3, history.stdout);
});

test('a command ends through process.exit once its event loop is empty (Node skips its teardown), with its exit code and all its output', (t) => {
  const big = 'x'.repeat(1024 * 1024);
  const { dir, cleanup } = tempTree({
    'd.json': JSON.stringify({ a: 1, big }),
    // process.exit() calls process.reallyExit; a process that ends by itself does not.
    'exit-probe.cjs': `const real = process.reallyExit;
process.reallyExit = function (code) { require('node:fs').writeFileSync(process.env.EXIT_OUT, String(code)); return real.call(this, code); };`,
  });
  t.after(cleanup);
  const out = join(dir, 'exit.txt');
  const run = (args: string[]) => {
    rmSync(out, { force: true });
    const r = spawnSync(process.execPath, ['-r', join(dir, 'exit-probe.cjs'), CLI, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ EXIT_OUT: out }),
      maxBuffer: 4 * 1024 * 1024,
    });
    return { ...r, exited: existsSync(out) ? Number(readFileSync(out, 'utf8')) : undefined };
  };
  const small = run(['get', 'd.json', '.a']);
  assert.deepEqual([small.status, small.stdout, small.exited], [0, '1\n', 0]);
  const whole = run(['get', 'd.json', '.big']); // 1 MiB through a pipe
  assert.deepEqual([whole.status, whole.stdout === `"${big}"\n`, whole.exited], [0, true, 0]);
  const bad = run(['get', 'd.json', '.[']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /jq/);
  assert.equal(bad.exited, 2);
});

test('baton get walks up for .git once: one look per folder from the working folder to the git top level', (t) => {
  const { dir, cleanup } = tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'a/b/d.json': '{"a":1}',
    'git-probe.cjs': `const fs = require('node:fs');
const looks = [];
for (const name of ['existsSync', 'statSync', 'lstatSync']) {
  const look = fs[name];
  fs[name] = function (path, ...rest) { if (String(path).endsWith('.git')) looks.push(String(path)); return look.call(this, path, ...rest); };
}
process.on('exit', () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify(looks)));`,
  });
  t.after(cleanup);
  const out = join(dir, 'looks.json');
  const r = spawnSync(process.execPath, ['-r', join(dir, 'git-probe.cjs'), CLI, 'get', 'd.json', '.a'], {
    cwd: join(dir, 'a', 'b'),
    encoding: 'utf8',
    env: cleanEnv({ PROBE_OUT: out }),
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '1\n');
  const looks = (JSON.parse(readFileSync(out, 'utf8')) as string[]).map((path) => relative(dir, path));
  assert.deepEqual(looks, [join('a', 'b', '.git'), join('a', '.git'), '.git']);
});
