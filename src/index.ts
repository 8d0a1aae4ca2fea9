// Anything exported here is public API: named exports only.
export { openDoc, type OpenOptions } from './doc/open.js';
export { Doc, type Args, type DocOptions, type Updater, type WriteResult } from './doc/doc.js';
export { BatonError, EXIT, isBatonError, type ErrorCode, type Issue } from './core/errors.js';
export type { Json, JsonObject } from './core/json.js';
export {
  FileStore,
  MemoryStore,
  openStore,
  checkNextRevision,
  type Change,
  type Current,
  type Decision,
  type DocMeta,
  type DocumentCheck,
  type EntryDraft,
  type FileStoreOptions,
  type Finding,
  type HistoryEntry,
  type Operation,
  type ReadResult,
  type Store,
  type StoreOptions,
} from './stores/index.js';
export { buildChange } from './doc/commit.js';
export { compileJq, formatJqCompact, formatJqRaw } from './core/jq/jq.js';
export {
  Board,
  BOARD_KEY,
  type BarrierState,
  type BoardOptions,
  type Claim,
  type Item,
  type NewItem,
  type PendingItem,
  type WaitMode,
  type WorkBoard,
} from './board/board.js';
