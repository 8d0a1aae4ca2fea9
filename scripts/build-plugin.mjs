// Builds the Claude Code plugin's CLI bundle into plugin/dist/, which is committed: installed from a
// git marketplace, Claude Code copies only the committed files (no install, no build runs), and
// the hooks run `${CLAUDE_PLUGIN_ROOT}/dist/cli.js` through plugin/bin/baton. Run at the end of
// scripts/build.mjs; test/install/plugin-bundle.test.ts rebuilds it into a temp folder and fails
// when the committed copy has drifted from src/.
//
// Kept small, because every change to src/ changes it in git: minified, no source maps, and only
// the hot paths get bundles of their own, as in dist/ (the hook front, the status line, and the
// lazily loaded parts: the policy engine, the shell analysis, the PostgreSQL driver, Ajv, yaml,
// re2js). Every other command runs from one shared bundle (commands/_rest.js), instead of dist/'s
// self-contained bundle per command, each with its own copy of the engine.
//
// cli.js is a few lines of old JavaScript that any Node parses: on a Node older than 20 it says so
// and exits 1 (the hook wrapper then denies a gated event) instead of failing somewhere inside.
// It then requires the entry (entry.js, src/cli/entry.ts), which runs main.js through a code cache
// as dist/cli.js does: a PreToolUse hook 106.09 -> 105.02 M instructions, the hop to entry.js
// included (docs/benchmarks.md). By its absolute path, as bin/baton.js requires dist/cli.js: for a
// relative one Node also looks for the package's own "exports" (0.4 M instructions).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildId } from './build-id.mjs';
import {
  bundleEntries,
  bundleEntry,
  cliCommands,
  LAZY,
  LAZY_IN_READS,
  lazyPlugin,
  LOADED_BUNDLE,
  SERVE_FACES,
} from './cli-bundles.mjs';

/** Commands with a bundle of their own: each runs many times a session, as its own process. */
const HOT = new Set(['hook', 'statusline']);

const ENTRY = `'use strict';
// Checked in syntax any Node parses: the bundles need Node 20 or newer.
var major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write('baton needs Node 20 or newer, and this is Node ' + process.version + ': install Node 20+ (or put it first on PATH)\\n');
  process.exit(1);
}
require(__dirname + '/entry.js');
`;

/** The plugin bundle's files, path (relative to the dist folder) to text. */
export async function pluginFiles() {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  const identity = buildId();
  const commands = cliCommands();
  const rest = commands.filter((name) => !HOT.has(name));
  const out = resolve('.plugin-build');
  const options = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    format: 'cjs',
    outdir: out,
    supported: { 'dynamic-import': false },
    define: {
      BATON_VERSION: JSON.stringify(version),
      BATON_BUILD: JSON.stringify(identity),
      BATON_MAIN: JSON.stringify('main.js'),
      // Every command but the hot ones, and help, --version and unknown commands, run in _rest.
      BATON_BUNDLES: JSON.stringify(
        JSON.stringify({
          ...Object.fromEntries([...HOT].map((name) => [name, `commands/${name}.js`])),
          '': 'commands/_rest.js',
        }),
      ),
    },
  };
  // The entry, which cli.js requires, on its own: the rest are loaded through the code cache.
  const entry = build({ ...options, entryPoints: { entry: 'src/cli/entry.ts' } });
  const loaded = build({
    ...options,
    ...LOADED_BUNDLE,
    entryPoints: {
      main: 'src/cli/main.ts',
      ...Object.fromEntries([...HOT].map((name) => [`commands/${name}`, bundleEntry([name])])),
      'commands/_rest': bundleEntry(rest),
      // What only a write runs, and the jq engine, stay inline: every command but the hot ones shares
      // _rest, and the plugin's commands are mostly writes (the compat helpers, the skills' task
      // updates).
      ...Object.fromEntries(
        Object.entries(LAZY)
          .filter(([from]) => !LAZY_IN_READS.includes(from) && !SERVE_FACES.includes(from))
          .map(([from, name]) => [`lazy/${name}`, from]),
      ),
    },
    plugins: [lazyPlugin({ inline: [...LAZY_IN_READS, ...SERVE_FACES] }), bundleEntries()],
  });
  const files = {
    'cli.js': ENTRY,
    'package.json': '{ "type": "commonjs" }\n',
    // npm pack: the code caches hooks write beside the bundles stay out of the package.
    '.npmignore': '.cache/\n',
    // The hook client (plugin/lib/serve-client.bash) compares it with the server's (serve.json).
    'build-id': `${identity}\n`,
  };
  for (const result of await Promise.all([entry, loaded]))
    for (const file of result.outputFiles) files[relative(out, file.path)] = file.text;
  return files;
}

/**
 * Writes the bundle into `dist`: each file whose text changed by an atomic rename (main.js, entry.js
 * and cli.js last), then removes files no longer built. Files that did not change are not touched, so
 * a rebuild with src/ unchanged leaves git and a running hook alone.
 */
export async function buildPlugin(dist) {
  const files = await pluginFiles();
  const order = Object.keys(files).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of order) {
    const path = join(dist, name);
    if (readOptional(path) === files[name]) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.${process.pid}.tmp`, files[name]);
    renameSync(`${path}.${process.pid}.tmp`, path);
  }
  for (const name of listed(dist))
    if (!(name in files) && !name.includes('.cache/') && !name.endsWith('.tmp'))
      rmSync(join(dist, name), { force: true });
  // The folders of the old layout (dist/builds/<id>/), from before the bundle was committed.
  rmSync(join(dist, 'builds'), { recursive: true, force: true });
}

const rank = (name) => ['main.js', 'entry.js', 'cli.js'].indexOf(name) + 1;

function readOptional(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function listed(dir, prefix = '') {
  let names = [];
  try {
    for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
      const name = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory())
        names = names.concat(entry.name === '.cache' || entry.name === 'builds' ? [] : listed(dir, name));
      else names.push(name);
    }
  } catch {
    // no folder yet
  }
  return names;
}
