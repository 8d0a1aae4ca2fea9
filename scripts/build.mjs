// Builds dist/: the library as one ESM file (index.mjs) and the CLI as CommonJS, one
// self-contained bundle per command (commands/<name>.js) behind a small main (cli.js).
//
// Each build goes into a new folder, dist/builds/<id>/; only when it is complete do the entry
// files (dist/cli.js, dist/index.mjs, dist/index.d.ts) switch to it, each by an atomic rename. A
// process that is running from the previous build (a hook, a `baton watch`) keeps loading its
// lazily required bundles from its own folder, so a rebuild (`npm test`, `npm install`) never
// shows it a half-built or missing dist/. Renaming a new folder over dist/ itself cannot do this:
// rename fails on a non-empty folder, and npm does not pack a symlinked dist/.
//
// Why CommonJS and one file per command: every hook call is a fresh Node process, and measured
// here a `baton get` built as split ESM chunks spent ~20 ms of its ~50 ms resolving and linking
// ten modules through the ESM loader (a bare ESM file alone costs ~6 ms more than CommonJS). A
// command now loads exactly two files, main and its own bundle, through require.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { compileBuiltinSchemas } from './compile-schemas.mjs';
import { switchTo } from './switch-build.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const id = `${Date.now().toString(36)}-${process.pid}`;
const out = `dist/builds/${id}`;
mkdirSync(out, { recursive: true });
// The package is "type": "module"; the CLI bundles are CommonJS.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
await compileBuiltinSchemas();

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
};
const commands = readdirSync('src/cli/commands')
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `src/cli/commands/${file}`);

// Large libraries that only some runs need (Ajv for user schemas, yaml for contracts, re2js for
// jq regex builtins) are bundled
// once into dist/vendor/ and loaded on first use, instead of being parsed by every command.
const VENDOR = { 'ajv/dist/2020.js': 'ajv', yaml: 'yaml', re2js: 're2js' };

// Commands run inside a vm.Script (for the code cache, src/cli/bundle-loader.ts), where `import()`
// has no loader. Every dynamic import that leaves the bundle (a vendor library, a node: builtin)
// becomes a lazily evaluated stub module that requires it.
const lazyRequire = {
  name: 'lazy-require',
  setup(b) {
    b.onResolve({ filter: /^(ajv\/dist\/2020\.js|yaml|re2js|node:.+)$/ }, (args) => {
      if (args.kind === 'require-call' || args.namespace === 'lazy-require') {
        return { path: VENDOR[args.path] ? `../vendor/${VENDOR[args.path]}.js` : args.path, external: true };
      }
      return args.kind === 'dynamic-import' || VENDOR[args.path]
        ? { path: args.path, namespace: 'lazy-require' }
        : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// Heavy handlers a command imports lazily are bundles of their own in dist/parts/, so a hook
// that returns early (an event its profile ignores, the no-goal case) never loads the engine.
// The shell parser and analysis are a part of their own, loaded by run-hook only for a shell
// command, so Write/Edit decisions and other events never load them.
const LEAF_PARTS = { 'src/harness/shell/analyze.ts': 'shell-gate' };
const PARTS = {
  ...LEAF_PARTS,
  'src/harness/run-hook.ts': 'run-hook',
  'src/goal/hooks/run.ts': 'goal-hooks',
};
const partFiles = Object.fromEntries(Object.entries(PARTS).map(([file, name]) => [resolve(file), name]));
const partExports = {};
// The stub re-exports the part's names as an ES module, so `(await import(...)).name` reads the
// same as it does in the source.
const lazyParts = {
  name: 'lazy-parts',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const part = partFiles[resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))];
      // A part not built yet (while the parts themselves are built) is bundled inline.
      return part && partExports[part] ? { path: part, namespace: 'lazy-part' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-part' }, (args) => ({
      contents: [
        `import { loadBundle } from ${JSON.stringify(resolve('src/cli/bundle-loader.ts'))};`,
        `import { join } from 'node:path';`,
        `const part = loadBundle(join(__dirname, '..', 'parts', ${JSON.stringify(`${args.path}.js`)}));`,
        ...partExports[args.path].map((name) =>
          name === 'default' ? 'export default part.default;' : `export const ${name} = part.${name};`,
        ),
      ].join('\n'),
      loader: 'js',
      resolveDir: resolve('.'),
    }));
  },
};

// A part's export names, read from the built bundle (its top level only defines functions).
const readExports = (parts) => {
  for (const name of Object.values(parts)) {
    partExports[name] = Object.keys(createRequire(import.meta.url)(resolve(`${out}/parts/${name}.js`))).filter(
      (key) => key !== '__esModule',
    );
  }
};
const entries = (parts) => Object.fromEntries(Object.entries(parts).map(([file, name]) => [name, file]));
await build({
  ...common,
  entryPoints: entries(LEAF_PARTS),
  outdir: `${out}/parts`,
  format: 'cjs',
  plugins: [lazyRequire],
});
readExports(LEAF_PARTS);
const outer = Object.fromEntries(Object.entries(PARTS).filter(([file]) => !(file in LEAF_PARTS)));
await build({
  ...common,
  entryPoints: entries(outer),
  outdir: `${out}/parts`,
  format: 'cjs',
  plugins: [lazyParts, lazyRequire],
});
readExports(outer);

await Promise.all([
  build({
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: out,
    format: 'cjs',
    define: { BATON_VERSION: JSON.stringify(version) },
  }),
  build({
    ...common,
    entryPoints: commands,
    outdir: `${out}/commands`,
    format: 'cjs',
    plugins: [lazyParts, lazyRequire],
    define: { BATON_VERSION: JSON.stringify(version) },
  }),
  build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(VENDOR).map(([from, name]) => [name, from])),
    outdir: `${out}/vendor`,
    format: 'cjs',
  }),
  build({
    ...common,
    entryPoints: { index: 'src/index.ts' },
    outdir: out,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
  }),
]);

// Type declarations for library users, from the same sources.
execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', `${out}/types`],
  { stdio: 'inherit' },
);

// The Claude Code plugin ships a copy of the CLI bundle (plugin/dist); see scripts/build-plugin.mjs.
const { buildPlugin } = await import('./build-plugin.mjs');
buildPlugin(out, id);

switchTo('dist', id, {
  'index.d.ts': `export * from './builds/${id}/types/index.js';\n`,
  'index.mjs': `export * from './builds/${id}/index.mjs';\n`,
  'cli.js': `require('./builds/${id}/cli.js');\n`,
});
