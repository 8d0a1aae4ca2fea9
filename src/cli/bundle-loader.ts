import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nodeBinding } from '../fs/node-binding.js';
import { BatonError } from '../core/errors.js';
import { fnv1a32 } from '../core/hash.js';
import { userTempDir } from '../fs/temp-dir.js';
import { mkdirInside } from '../fs/confine.js';
import { CODE_FILE_MAX_BYTES } from '../fs/bounded-read.js';

/**
 * Loads a bundle (a command, or a lazily loaded part or library) through a V8 code cache, so a
 * hook process skips compiling it: measured here, compiling was most of what a command cost over
 * a bare Node start. The v8-compile-cache package measured slower than no cache at all.
 *
 * This is used on Node 22 and 24 too, instead of their module.enableCompileCache: that cache is
 * made when a module is compiled, before the functions a command runs are (94 KB for `get` against
 * 160 KB written here at exit), and measured 2-7 ms more CPU per `get`, `update` or hook process
 * on both (docs/benchmarks.md, "Start-up").
 *
 * The cache is derived data, kept beside the bundle (`.cache/` in its folder), or in this user's
 * own temp folder (userTempDir: 0700 and owned by us, so no one else can plant code to run; named
 * by the bundle's path, so installs never share files) when the install is read-only. V8 rejects
 * a stale one (the source or Node changed) and it is rewritten; when nothing is writable the
 * command just runs uncached.
 *
 * The cache's name carries the bundle's size and modification time: V8 checks a cache against the
 * source's length only, so a rebuilt bundle of the same length (the plugin's committed bundle is
 * rewritten in place, plugin/dist) would run the old bytecode, and fail or do the old thing.
 *
 * A cache holds the functions its run compiled, and is written once: so one written by a run that
 * did little of its command's work (a failure, `--help`, a hook for an event nothing handles:
 * draftRun()) is kept as a first draft (`.first`), used until a run that succeeds writes the cache
 * proper. Kept as final, an `update --help` first
 * after an install left every later `update` ~25% more instructions (docs/benchmarks.md).
 */
export function loadBundle<T>(file: string): T {
  const [fd, { size, mtimeMs }] = openCode(file, 'reinstall baton');
  let source: string;
  try {
    // As text straight from the file (Node decodes it natively): no Buffer to allocate and decode.
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const name = `${size}-${Math.floor(mtimeMs)}-${basename(file)}.${process.version}.v8`;
  const beside = join(dirname(file), '.cache', name);
  const inTemp = (create: boolean) => {
    const own = userTempDir(process.env, 'v8-cache', { create });
    return own === undefined ? undefined : join(own, `${fnv1a32(file)}-${name}`);
  };
  const at = (place: string | undefined, draft: boolean) => {
    const data = place === undefined ? undefined : readOptional(draft ? `${place}${DRAFT}` : place);
    return place !== undefined && data ? { place, data, draft } : undefined;
  };
  // The temp folder only when the install has no cache (finding it costs two lstats), and only
  // found, not made: it is made at exit, and only if the cache cannot be written beside. A draft
  // is looked for last: only a process run before any that succeeded reads one.
  let found = at(beside, false);
  if (!found) {
    const temp = inTemp(false);
    found = at(temp, false) ?? at(beside, true) ?? at(temp, true);
  }
  // Wrapped as Node wraps a CommonJS module. The bundle gets this module's own require: bundles
  // require only Node's builtins (esbuild bundles the rest), and a createRequire per bundle cost
  // ~0.1 ms.
  const [script, runScript] = compile(WRAP_HEAD + source + WRAP_TAIL, file, found?.data);
  const module = { exports: {} as T };
  const run = runScript() as (...args: unknown[]) => void;
  run(module.exports, require, module, file, dirname(file));
  // Written at exit, so the cache also holds the functions this run compiled lazily ('exit' comes
  // once: on() spares compiling once()'s wrappers, main.ts).
  if (!found || script.cachedDataRejected || found.draft) {
    const place = found?.place;
    const keep = found !== undefined && !script.cachedDataRejected;
    process.on('exit', (code) => {
      const draft =
        code !== 0 || helpOnly(process.argv.slice(2)) || (globalThis as Record<symbol, unknown>)[DRAFT_RUN] === true;
      // A draft already in use stays until a run that succeeds replaces it.
      if (draft && keep) return;
      saveCache(script, place ? [() => place] : [() => beside, () => inTemp(true)], draft);
    });
  }
  return module.exports;
}

const DRAFT = '.first';

/**
 * Set by draftRun(). A global symbol, not a variable of this module: the command that says so runs
 * in its own bundle, which carries its own copy of this module.
 */
const DRAFT_RUN = Symbol.for('baton.code-cache.draft-run');

/**
 * Said by a command whose run succeeded without doing its work (a hook for an event nothing
 * handles returns before its handlers): this process's caches are written as drafts, as for
 * --help, so the first real run still writes the cache proper.
 */
export function draftRun(): void {
  (globalThis as Record<symbol, unknown>)[DRAFT_RUN] = true;
}

/** A run that only printed help: it compiled the parser and the help text, not the command. */
function helpOnly(argv: readonly string[]): boolean {
  return argv.length === 0 || argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h');
}

declare const require: NodeJS.Require;
type Vm = typeof import('node:vm');

/** A compiled bundle: what this module needs of node:vm's Script (and its binding's) besides running it. */
interface Compiled {
  readonly cachedDataRejected?: boolean | undefined;
  createCachedData(): Buffer;
}

/** node:vm's Script as Node builds it from its binding (lib/vm.js), on the Nodes known to match. */
interface RawScript {
  runInContext(context: null, timeout: number, displayErrors: boolean, sigint: boolean, breakFirst: boolean): unknown;
  readonly cachedDataRejected?: boolean;
  createCachedData(): Buffer;
}
type RawScriptClass = new (
  code: string,
  filename: string,
  lineOffset: number,
  columnOffset: number,
  cachedData: Buffer | undefined,
  produceCachedData: boolean,
  parsingContext: undefined,
  hostDefinedOptionId: symbol,
) => RawScript;

/**
 * The bundle compiled with its cache, and run as runInThisContext() runs it. node:vm itself is a
 * module a process compiles and runs on first require: ~2.4 M instructions, 2.7% of a bare Node
 * start (callgrind, docs/benchmarks.md), in every command and hook. So where this Node's binding
 * takes the arguments lib/vm.js passes it (checked in Node 20.20, 22.23 and 24.22; the binding
 * aborts the process on any other count, so no other Node is tried), the Script is built from it
 * directly, as lib/vm.js does with no options but the cache. Elsewhere, under coverage or source
 * maps (vm registers the bundle's source map for them), or where process.binding() would warn, it
 * is node:vm.
 */
function compile(code: string, filename: string, cachedData: Buffer | undefined): [Compiled, () => unknown] {
  const Raw = rawScriptClass();
  if (Raw) {
    // A symbol of its own, as vm gives a script with an importModuleDynamically: the bundles have
    // no import() (the build turns each into a require), so none is registered.
    const raw = new Raw(code, filename, 0, 0, cachedData, false, undefined, Symbol(filename));
    return [raw, () => raw.runInContext(null, -1, true, false, false)];
  }
  // Loaded here, not imported: an import is loaded with the bundle, whichever way it compiles.
  // process.getBuiltinModule exists from Node 20.16; before it, this CommonJS bundle's require.
  const { Script } =
    (process.getBuiltinModule as ((id: 'node:vm') => Vm) | undefined)?.('node:vm') ?? (require('node:vm') as Vm);
  const script = new Script(code, { filename, ...(cachedData ? { cachedData } : {}) });
  return [script, () => script.runInThisContext() as unknown];
}

function rawScriptClass(): RawScriptClass | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (!((major === 20 && minor >= 20) || major === 22 || major === 24)) return undefined;
  if (process.env.NODE_V8_COVERAGE || process.sourceMapsEnabled) return undefined;
  const Raw = nodeBinding<{ ContextifyScript?: unknown }>('contextify')?.ContextifyScript;
  if (typeof Raw !== 'function') return undefined;
  const proto = (Raw as { prototype?: Partial<Record<keyof RawScript, unknown>> }).prototype;
  return typeof proto?.runInContext === 'function' && typeof proto.createCachedData === 'function'
    ? (Raw as RawScriptClass)
    : undefined;
}

const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_TAIL = '\n});';

function readOptional(file: string): Buffer | undefined {
  try {
    const [fd, { size }] = openCode(file, '');
    try {
      return readWhole(fd, size);
    } finally {
      closeSync(fd);
    }
  } catch {
    // No cache, or one that is not a regular file or too large: run uncached (and rewrite it at exit).
    return undefined;
  }
}

/**
 * A bundle or its cache, opened for one read of its whole size (bounded-read.ts's general read
 * probes for the end and copies; this runs twice in every process). Refused unless a regular file
 * of at most CODE_FILE_MAX_BYTES: a FIFO planted at the name must not block the open, a device
 * must not be read for ever.
 */
function openCode(file: string, fix: string): [number, Stats] {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const stat = fstatSync(fd);
  if (stat.isFile() && stat.size <= CODE_FILE_MAX_BYTES) return [fd, stat];
  closeSync(fd);
  throw new BatonError('unsafe_path', `${file} is not a regular file of at most 64 MiB; ${fix}`);
}

function readWhole(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let read = 0;
  for (let n = -1; read < size && n !== 0; read += n) n = readSync(fd, bytes, read, size - read, null);
  return read === size ? bytes : bytes.subarray(0, read);
}

function saveCache(script: Compiled, places: (() => string | undefined)[], draft: boolean): void {
  const data = script.createCachedData();
  for (const placeAt of places) {
    const found = placeAt();
    if (found === undefined) continue;
    const place = draft ? `${found}${DRAFT}` : found;
    try {
      // The folder must stay inside the one it belongs to (the bundle's, or the user's temp
      // folder) after symlinks: a .cache linked elsewhere is not written into. The temp name is
      // created fresh ('wx'), never opened through a link planted at it.
      mkdirInside(dirname(dirname(place)), dirname(place), 'code cache folder');
      const temp = `${place}.${process.pid}.tmp`;
      writeFileSync(temp, data, { flag: 'wx' });
      renameSync(temp, place);
      dropStale(dirname(place), basename(place));
      return;
    } catch {
      // read-only here: try the next place
    }
  }
}

/**
 * The caches of earlier builds of the same bundle, and a draft the cache proper replaces, beside
 * the new one (`kept`): nothing will read them.
 */
function dropStale(dir: string, kept: string): void {
  const bundleOf = (name: string) => name.replace(/^\d+-\d+-/, '').replace(/\.first$/, '');
  const bundle = bundleOf(kept);
  try {
    for (const other of readdirSync(dir))
      if (other !== kept && /^\d+-\d+-/.test(other) && bundleOf(other) === bundle)
        rmSync(`${dir}/${other}`, { force: true });
  } catch {
    // only disk space is lost
  }
}
