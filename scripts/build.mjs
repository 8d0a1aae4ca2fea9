// Builds dist/: the library as one ESM file (index.mjs) and the CLI as CommonJS, one
// self-contained bundle per command (commands/<name>.js) behind a small main (main.js), which the
// entry (cli.js) runs.
//
// Each build goes into a new folder, dist/builds/<id>/; only when it is complete do the entry
// files (dist/cli.js, dist/index.mjs, dist/index.d.ts) switch to it, each by an atomic rename. A
// process that is running from the previous build (a hook, a `baton watch`) keeps loading its
// lazily required bundles from its own folder, so a rebuild (`npm test`, `npm install`) never
// shows it a half-built or missing dist/. Renaming a new folder over dist/ itself cannot do this:
// rename fails on a non-empty folder, and npm does not pack a symlinked dist/.
//
// Why CommonJS and one bundle per command: every hook call is a fresh Node process, and what it
// pays over a bare Node start is mostly loading code. A command loads main, its own bundle and the
// lazy bundles it uses, each through a V8 code cache (src/cli/bundle-loader.ts). Measured against
// simpler builds (bench/startup.mjs, CPU ms per process, median of 25 interleaved runs, 2026-12-01;
// all figures in docs/benchmarks.md, "Start-up"), for `baton get` / a Bash PreToolUse hook:
//                                               Node 20        Node 22        Node 24
//   this build                                  29 / 31        29 / 32        33 / 37
//   one CommonJS bundle for the whole CLI       +4 / +7        +10 / +9       +9 / +6
//   ESM chunks (splitting: true), compile cache +22 / +26      +23 / +20      +21 / +16
// One bundle makes every command load, and deserialize the cache of, every module's functions; the
// ESM loader resolves and links each chunk. So the per-command bundles stay: they share source,
// not load time.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import {
  bundleEntries,
  bundleEntry,
  BUILTIN_REQUIRE,
  cliCommands,
  LAZY,
  LAZY_IN_READS,
  lazyPlugin,
  LOADED_BUNDLE,
  READ_COMMANDS,
} from './cli-bundles.mjs';
import { compileBuiltinSchemas } from './compile-schemas.mjs';
import { compileJqPrelude } from './compile-jq-prelude.mjs';
import { switchTo } from './switch-build.mjs';
import { buildId } from './build-id.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const id = `${Date.now().toString(36)}-${process.pid}`;
const out = `dist/builds/${id}`;
mkdirSync(out, { recursive: true });
// The package is "type": "module"; the CLI bundles are CommonJS.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
await compileBuiltinSchemas();
await compileJqPrelude();
const identity = buildId();

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Not under coverage (npm run coverage builds with NODE_V8_COVERAGE set): minified code is a few
  // long lines, and a line partly run maps back to src/ as covered whole.
  minify: !process.env.NODE_V8_COVERAGE,
  sourcemap: 'linked',
  // Maps point into src/ (there in a checkout, for stack traces and coverage) without a copy of
  // it: half of dist/'s size.
  sourcesContent: false,
  logLevel: 'warning',
};
const commands = cliCommands();
// One bundle per command, each with the CLI's front (run-cli, the definitions); main is a few lines
// that pick the bundle, and '_main' answers help, --version and unknown commands.
const entries = (names) => Object.fromEntries(names.map((name) => [`commands/${name}`, bundleEntry([name])]));
const writes = commands.filter((name) => !READ_COMMANDS.includes(name));
const reads = commands.filter((name) => READ_COMMANDS.includes(name));
const cjs = {
  ...common,
  outdir: out,
  format: 'cjs',
  // import() of what stays outside the bundles (node: builtins) becomes a require: bundles run in
  // a vm.Script (for the code cache), which has no loader for import().
  supported: { 'dynamic-import': false },
  define: { BATON_VERSION: JSON.stringify(version), BATON_BUILD: JSON.stringify(identity) },
};

// dist/cli.js is the entry (src/cli/entry.ts): it runs main (builds/<id>/main.js) through a code
// cache, as main runs the bundles. Main itself as dist/cli.js, required from bin/baton.js, was
// compiled from source in every process (~4 M instructions of a `get`: docs/benchmarks.md). The
// entry names its build's main, and main its build's bundles (BATON_BUNDLES, from its folder), so
// a process keeps to the build it started in.
const entry = await build({
  ...cjs,
  entryPoints: { cli: 'src/cli/entry.ts' },
  // Strict as esbuild writes it: its "use strict" line, after the banner, would not be a directive.
  banner: { js: `"use strict";${BUILTIN_REQUIRE}` },
  write: false,
  define: { ...cjs.define, BATON_MAIN: JSON.stringify(`builds/${id}/main.js`) },
});
const entryText = (ext) => entry.outputFiles.find((file) => file.path.endsWith(`cli.js${ext}`)).text;
// The entry names its source map only under coverage (c8 maps it to src/ through it): Node compiles
// its source-map hook (maybeCacheSourceMap, 1.7 KB) for each CommonJS file that names a map, 0.5 M
// instructions of every command and hook (docs/benchmarks.md). A stack through the entry is a main
// it could not load, which its message names with the fix.
const coverage = Boolean(process.env.NODE_V8_COVERAGE);
if (coverage) writeFileSync(`${out}/cli.js.map`, entryText('.map'));

await Promise.all([
  build({
    ...cjs,
    ...LOADED_BUNDLE,
    entryPoints: { main: 'src/cli/main.ts' },
    define: {
      ...cjs.define,
      // As a JSON string: an object define would be a module of its own, initialised in every bundle.
      BATON_BUNDLES: JSON.stringify(
        JSON.stringify({
          ...Object.fromEntries(commands.map((name) => [name, `commands/${name}.js`])),
          '': 'commands/_main.js',
        }),
      ),
    },
  }),
  build({
    ...cjs,
    ...LOADED_BUNDLE,
    entryPoints: {
      ...entries(writes),
      ...Object.fromEntries(Object.entries(LAZY).map(([from, name]) => [`lazy/${name}`, from])),
    },
    plugins: [lazyPlugin({ inline: LAZY_IN_READS }), bundleEntries()],
  }),
  // The commands that only read leave what only a write runs, and the jq engine, to their lazy
  // bundles (LAZY_IN_READS).
  build({
    ...cjs,
    ...LOADED_BUNDLE,
    entryPoints: { ...entries(reads), 'commands/_main': bundleEntry([]) },
    plugins: [lazyPlugin(), bundleEntries()],
  }),
  build({
    ...common,
    entryPoints: { index: 'src/index.ts' },
    outdir: out,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
    // A require for the builtins src/ loads on first use on a Node before 20.16, which has no
    // process.getBuiltinModule (src/fs/lazy-os.ts); the CLI's CommonJS bundles have their own.
    banner: {
      js: "import { createRequire as batonCreateRequire } from 'node:module';\nconst require = batonCreateRequire(import.meta.url);",
    },
  }),
]);

// Type declarations for library users, from the same sources.
execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', `${out}/types`],
  { stdio: 'inherit' },
);

// The Claude Code plugin's committed bundle (plugin/dist); see scripts/build-plugin.mjs.
const { buildPlugin } = await import('./build-plugin.mjs');
await buildPlugin('plugin/dist');

switchTo('dist', id, {
  'index.d.ts': `export * from './builds/${id}/types/index.js';\n`,
  'index.mjs': `export * from './builds/${id}/index.mjs';\n`,
  'cli.js': entryText('').replace(
    /\/\/# sourceMappingURL=cli\.js\.map\s*$/,
    coverage ? `//# sourceMappingURL=builds/${id}/cli.js.map\n` : '',
  ),
});
