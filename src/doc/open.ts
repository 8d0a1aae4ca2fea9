import { FileStore, type FileStoreOptions } from '../stores/file/index.js';
import type { Store } from '../stores/store.js';
import { Doc, type DocOptions } from './doc.js';
import { locate } from './root.js';

export interface OpenOptions extends DocOptions, FileStoreOptions {
  /** Use this store instead of the embedded file store; `path` is then the key. */
  store?: Store;
  /** Working directory for relative paths and root detection (default process.cwd()). */
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/**
 * Opens a document by path. With no store given, the path is a JSON file on the embedded file
 * store, judged against the project root (see locate()).
 */
export function openDoc(path: string, options: OpenOptions = {}): Doc {
  const cwd = options.cwd ?? process.cwd();
  if (options.store) return new Doc(options.store, path, cwd, options);
  const { root, key } = locate(path, cwd, options.env ?? process.env);
  return new Doc(new FileStore(root, options), key, root, options);
}
