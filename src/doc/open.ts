import { realpathSync } from 'node:fs';
import { BatonError } from '../core/errors.js';
import { runtimeOptions } from '../core/runtime-options.js';
import { projectContext } from '../project/project-context.js';
import { defaultRoot, locate } from '../project/root.js';
import { chooseStore, openStore, type FileStoreOptions, type Store } from '../stores/index.js';
import { Doc, type DocOptions } from './doc.js';

export interface OpenOptions extends DocOptions, FileStoreOptions {
  /**
   * A Store (then `path` is the key), or a store URL as `--store` takes. Default: BATON_STORE,
   * else `store` in baton.config.json, else the embedded file store.
   */
  store?: Store | string;
  /** Working directory for relative paths and root detection (default process.cwd()). */
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** A shared store's budget for reaching its server, with no retries (hooks). */
  connectTimeoutMs?: number;
}

/**
 * Opens a document by path, judged against the project root (see locate()). The store is chosen
 * by openStore(); documents keep their project-relative names in every store.
 */
export function openDoc(path: string, options: OpenOptions = {}): Doc {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  // Where a relative path is judged and the config is read: found once, it walks up for `.git`.
  const home = once(() => defaultRoot(cwd, env));
  // The project's config adds rules to some documents and may name the store; read once.
  const project = once(options.project ?? (() => projectContext({ cwd, env, defaultRoot: home() })));
  const withProject = { ...options, project };
  if (typeof options.store === 'object') return new Doc(options.store, path, cwd, withProject);
  const choice = chooseStore(
    env,
    () => project().config,
    options.store !== undefined ? { url: options.store, from: 'the store option' } : undefined,
  );
  const { root, key } = locate(path, cwd, env, home());
  const store = openStore({
    ...choice,
    root,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    // The stale limit of the caller's environment, not necessarily this process's.
    lockStaleMs: options.lockStaleMs ?? runtimeOptions(env).lockStaleMs,
    ...(options.historyKeep !== undefined ? { historyKeep: options.historyKeep } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  if (store.kind !== 'file' && !inProject(root, home())) {
    throw new BatonError(
      'unsafe_path',
      `${path} is outside the project; a ${store.kind} store holds only the project's documents: give a path inside ${home()}`,
    );
  }
  return new Doc(store, key, root, withProject);
}

/**
 * The store the documents of the project at `cwd` live in, chosen as openDoc chooses it: for what
 * spans documents (the dashboard's listing). Keys are relative to the same root as openDoc's.
 */
export function openProjectStore(options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Store {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const home = defaultRoot(cwd, env);
  return openStore({ ...chooseStore(env, () => projectContext({ cwd, env, defaultRoot: home }).config), root: home });
}

function once<T extends object | string>(get: T | (() => T)): () => T {
  let value: T | undefined = typeof get === 'function' ? undefined : get;
  return () => (value ??= (get as () => T)());
}

/** locate() roots a path outside the project at its own folder; inside, at the project root. */
function inProject(root: string, home: string): boolean {
  if (root === home) return true;
  try {
    return root === realpathSync(home);
  } catch {
    return false;
  }
}
