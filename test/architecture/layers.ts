/**
 * The layers of src/ and the check that keeps them: every relative import of every module is
 * read with the TypeScript parser (static, dynamic, `export ... from` and type-only imports alike)
 * and judged against the rules below. docs/architecture.md explains the layers in prose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/** Lowest first. A module may import its own layer and the ones below, never one above. */
export const LAYERS: { name: string; parts: string[] }[] = [
  { name: 'core', parts: ['core', 'generated'] },
  { name: 'fs', parts: ['fs'] },
  { name: 'stores', parts: ['stores'] },
  { name: 'project', parts: ['project'] },
  { name: 'doc', parts: ['doc'] },
  { name: 'features', parts: ['goal', 'run', 'board', 'harness', 'doctor'] },
  { name: 'faces', parts: ['cli', 'mcp', 'ui', 'serve', 'index.ts'] },
];

/**
 * Imports between parts of one layer that are allowed, each with its reason; any other is a
 * violation, so the parts of a layer cannot grow into a cycle.
 */
export const SIDEWAYS: Record<string, string> = {
  'core -> generated': 'the schemas and validators compiled at build time',
  'generated -> core': "the types generated from the schemas use core's JSON types",
  'goal -> harness': 'the goal hooks run in the harness hook pipeline',
  'harness -> doctor': "the harness's doctor rows use the doctor's row type",
  'harness -> board':
    "the Stop hook's board gate, the generalised wave barrier, reads the work board; PreToolUse enforces its reservations, SubagentStop and SessionEnd end claims",
  'cli -> mcp': '`baton mcp` serves the MCP server',
  'cli -> ui': '`baton ui` serves the dashboard',
  'cli -> serve': '`baton serve` runs the resident hook server',
  'serve -> mcp': '`baton serve` serves the MCP tools over streamable HTTP',
  'serve -> ui': '`baton serve` serves the dashboard',
  'serve -> cli':
    "`baton serve` runs the CLI commands a client hands it (serve/cli-forward.ts) through the CLI's own boundary and command modules",
};

/** The one module of src/stores/ that the layers above may import. */
export const STORES_ENTRY = 'stores/index.ts';
/**
 * The stores' light entry: the registry's names as plain data with no imports, for the CLI's main
 * and help, which every command loads (through STORES_ENTRY they would load store modules too).
 */
export const STORES_NAMES = 'stores/schemes.ts';

/**
 * What the stores' entry may re-export from a backend's own folder (stores/<backend>/): its store
 * class and options. Never its internals (layout, finders, readers): a caller that needs one is
 * asking the Store interface or the registry for something they should offer every backend.
 */
export const BACKEND_EXPORTS: ReadonlySet<string> = new Set(['FileStore', 'FileStoreOptions']);

/** Node modules that do I/O, which core/ (pure computation over JSON) never imports. */
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|os|dgram|tls|worker_threads|cluster)$/;

/** `cli` for `cli/main.ts`, `index.ts` for the library entry. */
function partOf(module: string): string {
  return module.includes('/') ? module.slice(0, module.indexOf('/')) : module;
}

function layerOf(part: string): number {
  return LAYERS.findIndex((layer) => layer.parts.includes(part));
}

/** The specifiers a module imports, in any form. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/**
 * Every broken rule among `modules` (path under src/, e.g. `goal/goal-paths.ts`, to its source text),
 * one line each: `<importer> -> <imported>: <rule>`.
 */
export function violations(modules: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [module, source] of modules) {
    const from = partOf(module);
    const fromLayer = layerOf(from);
    if (fromLayer < 0) {
      found.push(`${module}: src/${from} belongs to no layer; add it to LAYERS in test/architecture/layers.ts`);
      continue;
    }
    for (const specifier of importsOf(source)) {
      if (!specifier.startsWith('.')) {
        if (from === 'core' && IO_MODULES.test(specifier))
          found.push(`${module} -> ${specifier}: core/ does no I/O; do it in fs/ or above and pass the data in`);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(module), specifier)).replace(/\.(m?js)$/, '.ts');
      if (target.startsWith('..')) continue;
      const to = partOf(target);
      const toLayer = layerOf(to);
      const edge = `${module} -> ${target}`;
      if (toLayer > fromLayer) {
        found.push(`${edge}: ${LAYERS[fromLayer]!.name} may not import ${LAYERS[toLayer]!.name}, a higher layer`);
      } else if (toLayer === fromLayer && to !== from && !(`${from} -> ${to}` in SIDEWAYS)) {
        found.push(
          `${edge}: ${from} and ${to} are both ${LAYERS[fromLayer]!.name}; this import needs a reason in SIDEWAYS`,
        );
      }
      if (to === 'stores' && from !== 'stores' && target !== STORES_ENTRY && target !== STORES_NAMES)
        found.push(`${edge}: outside src/stores import only ${STORES_ENTRY}, the stores' public entry`);
      if (module === STORES_NAMES) found.push(`${edge}: ${STORES_NAMES} is plain data and imports nothing`);
    }
    if (module === STORES_ENTRY) found.push(...backendReExports(module, source));
  }
  return found;
}

/** Re-exports by the stores' entry of a backend's internals (anything but BACKEND_EXPORTS from stores/<backend>/). */
function backendReExports(module: string, source: string): string[] {
  const found: string[] = [];
  const file = ts.createSourceFile(module, source, ts.ScriptTarget.Latest);
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!/^\.\/[^/]+\//.test(specifier)) continue;
    const names =
      statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => (element.propertyName ?? element.name).text)
        : ['*'];
    for (const name of names.filter((name) => !BACKEND_EXPORTS.has(name)))
      found.push(
        `${module} -> ${specifier}: exports ${name}, a backend internal; offer it through the Store interface or the registry`,
      );
  }
  return found;
}

/** The TypeScript modules under `dir` (src/), keyed by their path under it. */
export function readModules(dir: string): Map<string, string> {
  const modules = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        modules.set(relative(dir, path).split(/[\\/]/).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return modules;
}

export const SRC = join(dirname(dirname(import.meta.dirname)), 'src');
