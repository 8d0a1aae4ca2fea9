// Anything exported here is public API: named exports only.
export { openDoc, type OpenOptions } from './doc/open.js';
export { Doc, type Args, type DocOptions, type Updater, type WriteResult } from './doc/doc.js';
export { BatonError, EXIT, isBatonError, type ErrorCode, type Issue } from './core/errors.js';
export type { Json, JsonObject } from './core/json.js';
export type { Store, Current, Decision, Change, HistoryEntry, ReadResult, DocMeta, Operation } from './stores/store.js';
export { FileStore, type FileStoreOptions } from './stores/file/index.js';
export { MemoryStore } from './stores/memory.js';
export { compileJq, formatJqCompact, formatJqRaw } from './core/jq/index.js';
