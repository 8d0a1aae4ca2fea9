import { FileStore, type FileStoreOptions, type Store } from '../stores/index.js';
import { projectContext } from '../project/project-context.js';
import { Doc, type DocOptions } from './doc.js';
import { locate } from '../project/root.js';

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
  const env = options.env ?? process.env;
  // The project's config adds rules to some documents; found on the first write, not on reads.
  const withProject = { ...options, project: options.project ?? (() => projectContext({ cwd, env })) };
  if (options.store) return new Doc(options.store, path, cwd, withProject);
  const { root, key } = locate(path, cwd, env);
  return new Doc(new FileStore(root, options), key, root, withProject);
}
