// What the CLI's bundles are made of, shared by the package build (scripts/build.mjs: dist/) and the
// plugin's committed bundle (scripts/build-plugin.mjs: plugin/dist/).
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

/** The name of every command: src/cli/commands/<name>.ts. */
export function cliCommands() {
  return readdirSync('src/cli/commands')
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => file.slice(0, -3));
}

/**
 * The entry of a CLI bundle that carries `commands` (names), with the CLI's front: it exports
 * `run`, which src/cli/main.ts calls (src/cli/bundle-main.ts). As an esbuild entry point:
 * `bundleEntry(['get'])`, resolved by bundleEntries() among the plugins.
 */
export const bundleEntry = (commands) => `baton-bundle:${commands.join(',')}`;

export function bundleEntries() {
  return {
    name: 'bundle-entries',
    setup(b) {
      b.onResolve({ filter: /^baton-bundle:/ }, (args) => ({ path: args.path, namespace: 'baton-bundle' }));
      b.onLoad({ filter: /.*/, namespace: 'baton-bundle' }, (args) => {
        const names = args.path.slice('baton-bundle:'.length).split(',').filter(Boolean);
        // A bundle of several commands (the plugin's _rest) sets up only the one it runs: each is
        // required on first use, so esbuild runs a command module's top level (and its imports')
        // when it is asked for, not all of them at every start.
        const command = (name) => `require('./src/cli/commands/${name}.ts')`;
        // Each command's definition by its own name (src/cli/definitions.ts): a command's bundle
        // carries only its own, '_main' (help, unknown commands) every one. Every command's
        // was 19 KB of each bundle (~0.6 M instructions of a get, docs/benchmarks.md).
        const factory = (name) => `${name}Definition`;
        // The plugin's `_rest` (most commands, each required on first use) takes the whole list too:
        // its own, made at load, cost its get and --version ~0.5 M instructions more (measured).
        const own = names.length === 1;
        const definitions = own
          ? `definitionsOf({ ${JSON.stringify(names[0])}: ${factory(names[0])} })`
          : 'ALL_DEFINITIONS';
        return {
          contents: [
            `import { bundleMain } from './src/cli/bundle-main.ts';`,
            own
              ? `import { definitionsOf, ${factory(names[0])} } from './src/cli/definitions.ts';`
              : `import { ALL_DEFINITIONS } from './src/cli/definitions.ts';`,
            ...(names.length === 1 ? [`import * as c0 from './src/cli/commands/${names[0]}.ts';`] : []),
            `export const { run } = bundleMain({ ${names
              .map((name) =>
                names.length === 1
                  ? `${JSON.stringify(name)}: c0`
                  : `get ${JSON.stringify(name)}() { return ${command(name)}; }`,
              )
              .join(', ')} }, ${definitions});`,
          ].join('\n'),
          loader: 'js',
          resolveDir: resolve('.'),
        };
      });
    },
  };
}

// Bundles of their own, loaded on first use and shared by the commands that use them: heavy
// handlers a command may skip (a hook for an event its profile ignores never loads the engine; the
// shell parser loads only for a shell command), the PostgreSQL store with its driver (pg: a file
// store never reads it), the status line's read of a shared store (the engine, which a file-store
// status line never loads), what only a write needs (the built-in schemas' validators, the config's
// validator and document rules, the checks of where a mirror may be written: `baton get` loads none
// of them), the file store's doctor, `baton serve`'s MCP face and dashboard (a server that only
// answers hooks never reads their code: RSS, docs/benchmarks.md), and libraries only some runs need (Ajv for user schemas, yaml
// for contracts, re2js for jq regex builtins).
export const LAZY = {
  'src/harness/hooks/harness-handlers.ts': 'run-hook',
  'src/goal/hooks/goal-handlers.ts': 'goal-hooks',
  'src/harness/shell/analyze.ts': 'shell-gate',
  'src/stores/postgres/postgres-store.ts': 'postgres',
  'src/harness/statusline/shared-task.ts': 'statusline-shared',
  'src/core/schema/builtin-schemas.ts': 'validators',
  'src/project/config-checks.ts': 'config-checks',
  'src/doc/mirrors.ts': 'mirrors',
  'src/stores/file/file-doctor.ts': 'file-doctor',
  'src/serve/mcp-http.ts': 'serve-mcp',
  'src/ui/ui-server.ts': 'dashboard',
  'ajv/dist/2020.js': 'ajv',
  yaml: 'yaml',
  re2js: 're2js',
  'src/core/jq/jq.ts': 'jq',
  'src/fs/lock.ts': 'lock',
};

/**
 * The lazy bundles only a write runs. The commands that only read (READ_COMMANDS) load them lazily;
 * every other command, and the other lazy bundles, carry them inline: a write loads them on every
 * run, and as bundles of their own they cost an update ~3 ms more CPU (measured side by side: three
 * code caches to load, and the modules they share initialised twice).
 */
export const WRITE_ONLY = ['src/core/schema/builtin-schemas.ts', 'src/project/config-checks.ts', 'src/doc/mirrors.ts'];

/**
 * Imported statically (a program is compiled synchronously; the file store's transact is a method
 * of the store a read opens), and loaded by the commands that only read on the first call of one
 * of these functions, from the lazy bundle LAZY names: the jq engine, most of what the `get` bundle
 * held, which a `get` of a plain path (`.a.b`) does not run (src/core/jq/plain-path.ts); the lock
 * (35 top-level names of get.js: -0.24 M instructions of a get, docs/benchmarks.md), which a read
 * never takes. Every other bundle carries them inline: every update runs both. The stub exports
 * only these names: each name a module of a read bundle imports from one must be listed
 * (test/cli/lean-start.test.ts runs get, show and history, and checks the bundles carry neither).
 */
export const ON_CALL = {
  'src/core/jq/jq.ts': ['compileJq'],
  'src/fs/lock.ts': ['withLock', 'defaultStaleMs'],
};

/** What the commands that only read load lazily and every other bundle carries inline. */
export const LAZY_IN_READS = [...WRITE_ONLY, ...Object.keys(ON_CALL)];
export const READ_COMMANDS = ['get', 'show', 'history'];

/**
 * `baton serve`'s MCP face and dashboard: lazy in dist/ (a server that only answers hooks does not
 * hold their code: 67-71 -> 59-61 MB of RSS after 1000 hooks, docs/benchmarks.md), inline in the
 * plugin, whose committed bundle is held under 3 MiB and would carry the modules they share with
 * its `_rest` a second time.
 */
export const SERVE_FACES = ['src/serve/mcp-http.ts', 'src/ui/ui-server.ts'];

/**
 * The first line of every CommonJS file of the CLI (the entry, main, the bundles): its `require`
 * takes Node's builtins (`node:fs`) from process.getBuiltinModule (Node >= 20.16), a lookup, where
 * require() goes through Module._load, ~28 K instructions a call. esbuild writes a require for each
 * module that imports a builtin: 60 in a `get` (-0.37 M instructions, an update -0.48 M:
 * docs/benchmarks.md). Any other id (an optional package a library tries, as pg does pg-native),
 * and every id on an older Node, goes to require, which throws for what is not there.
 */
export const BUILTIN_REQUIRE =
  'require = ((r, g) => (g ? (id) => (id.startsWith("node:") ? g(id) : undefined) ?? r(id) : r))(require, process.getBuiltinModule);';

/**
 * What every bundle loaded through the code cache (src/cli/code-cache.ts: main, the commands, the
 * lazy bundles) is written inside, as esbuild options: the function Node wraps a CommonJS module
 * in. The loader compiles the file's text as it is; compiling the wrapper joined to the text at
 * run time made V8 flatten a second copy of the bundle (-0.21 M instructions and -46 page faults
 * for get.js, -0.31 M and -76 for update.js: docs/benchmarks.md). Not the entries Node requires
 * (dist/cli.js, the plugin's cli.js and entry.js): wrapped, they would only define a function.
 */
export const LOADED_BUNDLE = {
  banner: { js: `(function (exports, require, module, __filename, __dirname) {${BUILTIN_REQUIRE}` },
  footer: { js: '});' },
};

/**
 * A dynamic import of one of them becomes a CommonJS stub that loads its bundle (through the code
 * cache, src/cli/bundle-loader.ts); esbuild copies the stub's exports into the awaited namespace,
 * so `(await import(...)).name` reads the same as it does in the source. `inline` are sources that
 * stay in the importing bundle instead.
 */
export function lazyPlugin({ inline = [] } = {}) {
  const lazyByPath = Object.fromEntries(
    Object.entries(LAZY)
      .filter(([from]) => !inline.includes(from))
      .map(([from, name]) => [from.startsWith('src/') ? resolve(from) : from, name]),
  );
  const onCallByPath = Object.fromEntries(
    Object.entries(ON_CALL)
      .filter(([from]) => !inline.includes(from))
      .map(([from, names]) => [resolve(from), { bundle: LAZY[from], names }]),
  );
  const bundlePath = (name) => `require('node:path').join(__dirname, '..', 'lazy', ${JSON.stringify(`${name}.js`)})`;
  return {
    name: 'lazy',
    setup(b) {
      // A static import of an ON_CALL module becomes a stub whose functions load its bundle (through
      // the code cache) when first called.
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== 'import-statement') return undefined;
        const path = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        return onCallByPath[path] ? { path, namespace: 'lazy-on-call' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-on-call' }, (args) => {
        const { bundle, names } = onCallByPath[args.path];
        return {
          contents: [
            `const { loadBundle } = require('./src/cli/bundle-loader.ts');`,
            `let loaded;`,
            `const load = () => (loaded ??= loadBundle(${bundlePath(bundle)}));`,
            ...names.map((name) => `exports.${name} = (...args) => load().${name}(...args);`),
          ].join('\n'),
          loader: 'js',
          resolveDir: resolve('.'),
        };
      });
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const name =
          lazyByPath[args.path] ??
          (args.path.startsWith('.')
            ? lazyByPath[resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))]
            : undefined);
        return name ? { path: name, namespace: 'lazy' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
        contents: [
          `const { loadBundle } = require('./src/cli/bundle-loader.ts');`,
          `module.exports = loadBundle(${bundlePath(args.path)});`,
        ].join('\n'),
        loader: 'js',
        resolveDir: resolve('.'),
      }));
    },
  };
}
