// Anything exported here is public API: named exports only.
export { openDoc, type OpenOptions } from './doc/open.js';
export { Doc, type Args, type DocOptions, type Updater, type WriteResult } from './doc/doc.js';
export { BatonError, EXIT, isBatonError, type ErrorCode, type Issue } from './core/errors.js';
export type { Json, JsonObject } from './core/json.js';
export {
  FileStore,
  MemoryStore,
  type Change,
  type Current,
  type Decision,
  type DocMeta,
  type FileStoreOptions,
  type HistoryEntry,
  type Operation,
  type ReadResult,
  type Store,
} from './stores/index.js';
export { compileJq, formatJqCompact, formatJqRaw } from './core/jq/index.js';
