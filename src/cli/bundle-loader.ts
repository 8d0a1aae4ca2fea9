import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';

/**
 * Loads a command bundle through a V8 code cache kept beside it (`dist/commands/.cache/`), so a
 * hook process skips compiling its ~100 KB bundle: measured here, compiling is most of what a
 * command costs over a bare Node start. Node 22 has module.enableCompileCache for this; Node 20
 * has nothing built in, and the v8-compile-cache package measured slower than no cache at all.
 * The cache is derived data: V8 rejects a stale one (the source or Node changed) and we rewrite
 * it; when the folder is not writable, the command just runs uncached.
 */
export function loadBundle<T>(file: string): T {
  const cacheFile = join(dirname(file), '.cache', `${basename(file)}.${process.version}.v8`);
  const cached = readOptional(cacheFile);
  const script = new Script(wrap(readFileSync(file, 'utf8')), {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as T };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  // Written at exit, so the cache also holds the functions this run compiled lazily.
  if (!cached || script.cachedDataRejected) process.once('exit', () => saveCache(script, cacheFile));
  return module.exports;
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function saveCache(script: Script, file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // a read-only install runs uncached
  }
}
