/**
 * The read path of the code cache (bundle-loader.ts has the rest): a bundle compiled with its V8
 * code cache and run. A module of its own, lean on purpose: the CLI's entry (entry.ts, dist/cli.js)
 * runs main through it, and is the one piece of code compiled from source in every process, so
 * what it imports is parsed, and what it calls compiled, in every command and hook.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nodeBinding } from '../fs/node-binding.js';
import { fnv1a32 } from '../core/hash.js';
import { userTempDir } from '../fs/temp-dir.js';

/** A bundle compiled and run: its exports, and what cacheAtExit needs to write its cache. */
export interface LoadedCode<T> {
  readonly exports: T;
  readonly script: Compiled;
  readonly file: string;
  /** The cache's name: the bundle's size, modification time and name, this Node's version, and V8's flags (flagsOf). */
  readonly name: string;
  /** Where its cache was read from, when one was. */
  readonly found: { readonly place: string; readonly draft: boolean } | undefined;
}

/**
 * The bundle at `file` compiled (with its code cache, when there is one) and run as a CommonJS
 * module. Few calls on the common path (a cache beside the bundle, the Script from vm's binding):
 * the CLI's entry compiles this function, and each one it calls, from source in every process.
 */
export function runCode<T>(file: string, refuse: (message: string) => Error): LoadedCode<T> {
  let opened: ReturnType<typeof openCode>;
  try {
    opened = openCode(file);
  } catch (error) {
    // A build cut short or removed: one line, not Node's stack of an ENOENT.
    throw refuse(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); reinstall baton`);
  }
  if (!opened) throw refuse(`${file} is not a regular file of at most 64 MiB; reinstall baton`);
  const [fd, { size, mtimeMs }] = opened;
  let source: string;
  try {
    // As text straight from the file (Node decodes it natively): no Buffer to allocate and decode.
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const plain = `${size}-${Math.floor(mtimeMs)}-${basename(file)}.${process.version}`;
  const Raw = rawScriptClass();
  let name = `${plain}.v8`;
  let beside = besideOf(file, name);
  let data: Buffer | undefined;
  // Node's options, if any, may name a cache of their own (flagged): in the one function they call.
  if (process.execArgv.length === 0 && !process.env.NODE_OPTIONS) data = readOptional(beside);
  else [name, beside, data] = flagged(file, plain, Raw);
  const found = data ? { place: beside, data, draft: false } : cacheElsewhere(file, name, beside);
  // The file holds a function as Node wraps a CommonJS module in (written so at build time:
  // LOADED_BUNDLE in scripts/cli-bundles.mjs), compiled as it is: joined to the wrapper here, V8
  // flattened a second copy of the text. The bundle gets this module's own require: bundles
  // require only Node's builtins (esbuild bundles the rest), and a createRequire per bundle cost
  // ~0.1 ms.
  let script: Compiled;
  let wrapper: unknown;
  if (Raw) {
    // A symbol of its own, as vm gives a script with an importModuleDynamically: the bundles have
    // no import() (the build turns each into a require), so none is registered.
    const raw = new Raw(source, file, 0, 0, found?.data, false, undefined, Symbol(file));
    script = raw;
    wrapper = raw.runInContext(null, -1, true, false, false);
  } else [script, wrapper] = viaVm(source, file, found?.data);
  const module = { exports: {} as T };
  (wrapper as (...args: unknown[]) => void)(module.exports, require, module, file, dirname(file));
  return { exports: module.exports, script, file, name, found: found && { place: found.place, draft: found.draft } };
}

/**
 * The name, place and data of the cache of a process given Node options, its V8 flags' own: V8
 * rejects a cache made under other V8 flags, checking the hash of them it wrote in the cache's
 * header (FLAG_HASH_AT). A server (started with --max-semi-space-size=2, serve.ts) and the CLI
 * sharing one name rejected and rewrote each other's caches at every exit, and so did processes
 * given a V8 flag in NODE_OPTIONS, which did not name it. Named by the options as they were, a
 * test's `-r probe.js` made caches of its own, and every preload's path left a copy of each. So
 * the name carries that hash, read from the cache of an empty script (once per process, 0.32 M
 * instructions, kept for main and each bundle, which hold a copy of this module each; a list of
 * Node's own options to leave out measured dearer, compiled in every process). The cache of
 * unflagged processes (`plain`) is used when its header says it was made under this process's
 * flags, as under Node's own options (a preload) alone: its header is read first, and the rest only
 * then (read whole, it cost a flagged `get` 0.4 M instructions). Where runCode does not build the
 * Script from vm's binding (rawScriptClass: the Nodes whose V8 writes that header as read here),
 * the options as they are name it.
 */
function flagged(file: string, plain: string, Raw: RawScriptClass | undefined): [string, string, Buffer | undefined] {
  const key = Symbol.for('baton.code-cache.flags');
  const flags = ((globalThis as Record<symbol, number | string>)[key] ??= Raw
    ? new Raw('', '', 0, 0, undefined, false, undefined, key).createCachedData().readUInt32LE(FLAG_HASH_AT)
    : encodeURIComponent(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`));
  const unflagged = besideOf(file, `${plain}.v8`);
  const data = typeof flags === 'number' ? readOptional(unflagged, flags) : undefined;
  if (data) return [`${plain}.v8`, unflagged, data];
  const name = `${plain}.${typeof flags === 'number' ? flags.toString(16) : flags}.v8`;
  return [name, besideOf(file, name), readOptional(besideOf(file, name))];
}

/** Where V8 writes its hash of its flags in a code cache's header. */
const FLAG_HASH_AT = 12;

export const besideOf = (file: string, name: string) => join(dirname(file), '.cache', name);

/**
 * The cache of a bundle that has none beside it: in the user's temp folder (only found, not made:
 * it is made at exit, and only if the cache cannot be written beside), else a draft, beside then
 * in the temp folder (only a process run before any that succeeded reads one).
 */
function cacheElsewhere(file: string, name: string, beside: string) {
  const temp = inTemp(file, name, false);
  const looks: [string | undefined, boolean][] = [
    [temp, false],
    [beside, true],
    [temp, true],
  ];
  for (const [place, draft] of looks) {
    const data = place === undefined ? undefined : readOptional(draft ? `${place}${DRAFT}` : place);
    if (place !== undefined && data) return { place, data, draft };
  }
  return undefined;
}

export function inTemp(file: string, name: string, create: boolean): string | undefined {
  const own = userTempDir(process.env, 'v8-cache', { create });
  return own === undefined ? undefined : join(own, `${fnv1a32(file)}-${name}`);
}

export const DRAFT = '.first';

declare const require: NodeJS.Require;
type Vm = typeof import('node:vm');

/** A compiled bundle: what this module needs of node:vm's Script (and its binding's) besides running it. */
export interface Compiled {
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
 * The bundle compiled with its cache and run as runInThisContext() runs it, where runCode cannot
 * build the Script from vm's binding (rawScriptClass): through node:vm.
 */
function viaVm(code: string, filename: string, cachedData: Buffer | undefined): [Compiled, unknown] {
  // Loaded here, not imported: an import is loaded with the bundle, whichever way it compiles.
  // process.getBuiltinModule exists from Node 20.16; before it, this CommonJS bundle's require.
  const { Script } =
    (process.getBuiltinModule as ((id: 'node:vm') => Vm) | undefined)?.('node:vm') ?? (require('node:vm') as Vm);
  const script = new Script(code, { filename, ...(cachedData ? { cachedData } : {}) });
  return [script, script.runInThisContext() as unknown];
}

/**
 * node:vm's Script class from its binding, where this Node's binding takes the arguments
 * lib/vm.js passes it. node:vm itself is a module a process compiles and runs on first require:
 * ~2.4 M instructions, 2.7% of a bare Node start (callgrind, docs/benchmarks.md), in every command
 * and hook. Checked in Node 20.20, 22.23 and 24.22; the binding aborts the process on any other
 * argument count, so no other Node is tried. Not under coverage or source maps (vm registers the
 * bundle's source map for them), nor where process.binding() would warn: runCode takes node:vm.
 */
function rawScriptClass(): RawScriptClass | undefined {
  const [major, minor = ''] = process.versions.node.split('.');
  if (!((major === '20' && +minor >= 20) || major === '22' || major === '24')) return undefined;
  if (process.env.NODE_V8_COVERAGE || process.sourceMapsEnabled) return undefined;
  const Raw = nodeBinding<{ ContextifyScript?: unknown }>('contextify')?.ContextifyScript;
  if (typeof Raw !== 'function') return undefined;
  const proto = (Raw as { prototype?: Partial<Record<keyof RawScript, unknown>> }).prototype;
  return typeof proto?.runInContext === 'function' && typeof proto.createCachedData === 'function'
    ? (Raw as RawScriptClass)
    : undefined;
}

/** The cache at `file`; with `flagHash`, only one whose header carries that hash of V8's flags. */
function readOptional(file: string, flagHash?: number): Buffer | undefined {
  try {
    const opened = openCode(file);
    if (!opened) return undefined;
    const [fd, { size, uid, mode }] = opened;
    try {
      // A cache is code V8 runs in place of the bundle's source, checked only against its length:
      // one another user could have written is not read. A `.cache` made under umask 002 is
      // group-writable, and so is what is written in it, in an install others share.
      if ((mode & 0o022) !== 0 || uid !== (process.getuid?.() ?? uid)) return undefined;
      if (flagHash !== undefined) {
        // Read at its offset, so the whole read below still starts at 0; small, from Buffer's pool.
        const head = Buffer.allocUnsafe(FLAG_HASH_AT + 4);
        const got = readSync(fd, head, 0, head.length, 0);
        if (got < head.length || head.readUInt32LE(FLAG_HASH_AT) !== flagHash) return undefined;
      }
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      for (let n = -1; read < size && n !== 0; read += n) n = readSync(fd, bytes, read, size - read, null);
      return read === size ? bytes : bytes.subarray(0, read);
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
function openCode(file: string): [number, Stats] | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const stat = fstatSync(fd);
  if (stat.isFile() && stat.size <= CODE_FILE_MAX_BYTES) return [fd, stat];
  closeSync(fd);
  return undefined;
}

/** A compiled bundle of baton's own code, or its V8 code cache. */
const CODE_FILE_MAX_BYTES = 64 * 1024 * 1024;
