import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { BatonError } from '../core/errors.js';
import { mkdirInside } from '../fs/confine.js';
import { besideOf, DRAFT, inTemp, runCode, type Compiled, type LoadedCode } from './code-cache.js';

export type { LoadedCode } from './code-cache.js';

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
 * rewritten in place, plugin/dist) would run the old bytecode, and fail or do the old thing. A
 * process given Node options adds V8's hash of its flags, unless the unflagged cache was made
 * under the same (code-cache.ts, flagged): each set of V8 flags reads its own, and Node's own
 * options (a preload) name none.
 *
 * A cache holds the functions its run compiled, and is written once: so one written by a run that
 * did little of its command's work (a failure, `--help`, a hook for an event nothing handles:
 * draftRun()) is kept as a first draft (`.first`), used until a run that succeeds writes the cache
 * proper. Kept as final, an `update --help` first
 * after an install left every later `update` ~25% more instructions (docs/benchmarks.md).
 */
export function loadBundle<T>(file: string): T {
  // A bundle or lazy chunk that cannot be run is an install cut short or tampered with: baton's own
  // failure (exit 70, as main.ts says a missing command bundle), not the user's input.
  const loaded = runCode<T>(file, (message) => new BatonError('internal', message));
  cacheAtExit(loaded);
  return loaded.exports;
}

/**
 * Writes the bundle's code cache when this process exits, unless the one it ran with is final and
 * accepted. At exit, so the cache also holds the functions this run compiled lazily ('exit' comes
 * once: on() spares compiling once()'s wrappers, main.ts).
 */
export function cacheAtExit({ script, file, name, found }: LoadedCode<unknown>): void {
  if (found && !script.cachedDataRejected && !found.draft) return;
  const place = found?.place;
  const keep = found !== undefined && !script.cachedDataRejected;
  process.on('exit', (code) => {
    const draft =
      code !== 0 || helpOnly(process.argv.slice(2)) || (globalThis as Record<symbol, unknown>)[DRAFT_RUN] === true;
    // A draft already in use stays until a run that succeeds replaces it.
    if (draft && keep) return;
    saveCache(script, place ? [() => place] : [() => besideOf(file, name), () => inTemp(file, name, true)], draft);
  });
}

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
      // Writable by this user alone whatever the umask: the reader refuses a cache others may write.
      writeFileSync(temp, data, { flag: 'wx', mode: 0o644 });
      renameSync(temp, place);
      dropStale(dirname(place), basename(place));
      return;
    } catch {
      // read-only here: try the next place
    }
  }
}

/**
 * The caches of earlier builds of the same bundle (whatever Node and flags made them), and the
 * draft or the cache proper of the new one's name (`kept`) which it replaces: nothing will read
 * them. The caches of this build made under other flags or another Node stay: their processes
 * still read them, and dropping them would have each kind rewrite its own at every exit.
 */
function dropStale(dir: string, kept: string): void {
  // `size-mtime-name.node[.flags].v8[.first]` beside the bundle; in the temp folder with the hash
  // of the bundle's path before it (installs share that folder), which stays part of what names
  // the bundle. A write in progress (`.tmp`) is not a cache.
  const parts = (name: string) => /^((?:[0-9a-f]{8}-)?)(\d+-\d+)-(.+?\.js)\.v\d.*\.v8(?:\.first)?$/.exec(name);
  const proper = (name: string) => (name.endsWith(DRAFT) ? name.slice(0, -DRAFT.length) : name);
  const [, path, build, bundle] = parts(kept) ?? [];
  if (bundle === undefined) return;
  try {
    for (const other of readdirSync(dir)) {
      const [, otherPath, otherBuild, otherBundle] = parts(other) ?? [];
      if (other === kept || otherBundle !== bundle || otherPath !== path) continue;
      if (otherBuild !== build || proper(other) === proper(kept)) rmSync(`${dir}/${other}`, { force: true });
    }
  } catch {
    // only disk space is lost
  }
}
