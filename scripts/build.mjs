// Builds dist/: the library as one ESM file (dist/index.mjs) and the CLI as CommonJS, one
// self-contained bundle per command (dist/commands/<name>.js) behind a small main (dist/cli.js).
//
// Why CommonJS and one file per command: every hook call is a fresh Node process, and measured
// here a `baton get` built as split ESM chunks spent ~20 ms of its ~50 ms resolving and linking
// ten modules through the ESM loader (a bare ESM file alone costs ~6 ms more than CommonJS). A
// command now loads exactly two files, main and its own bundle, through require.
import { build } from 'esbuild';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { compileBuiltinSchemas } from './compile-schemas.mjs';

rmSync('dist', { recursive: true, force: true });
await compileBuiltinSchemas();

const common = { bundle: true, platform: 'node', target: 'node20', minify: true, sourcemap: 'linked', logLevel: 'warning' };
const commands = readdirSync('src/cli/commands').filter((file) => file.endsWith('.ts')).map((file) => `src/cli/commands/${file}`);

// main.ts imports './commands/<name>.js' lazily; keep those as separate files, required on demand.
const commandsExternal = {
  name: 'commands-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

// Large libraries that only some runs need (Ajv for user schemas, yaml for contracts) are bundled
// once into dist/vendor/ and loaded on first use, instead of being parsed by every command.
const VENDOR = { 'ajv/dist/2020.js': 'ajv', yaml: 'yaml' };
const vendorExternal = {
  name: 'vendor-external',
  setup(b) {
    b.onResolve({ filter: /^(ajv\/dist\/2020\.js|yaml)$/ }, (args) => ({ path: `../vendor/${VENDOR[args.path]}.js`, external: true }));
  },
};

await Promise.all([
  build({ ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', format: 'cjs', plugins: [commandsExternal] }),
  build({ ...common, entryPoints: commands, outdir: 'dist/commands', format: 'cjs', plugins: [vendorExternal] }),
  build({ ...common, entryPoints: Object.fromEntries(Object.entries(VENDOR).map(([from, name]) => [name, from])), outdir: 'dist/vendor', format: 'cjs' }),
  build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir: 'dist', format: 'esm', outExtension: { '.js': '.mjs' }, packages: 'external' }),
]);
// The package is "type": "module"; the CLI bundles are CommonJS.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');

// The Claude Code plugin ships a copy of the CLI bundle (plugin/dist); see scripts/build-plugin.mjs.
await import('./build-plugin.mjs');
