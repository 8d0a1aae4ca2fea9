// The stores' public entry: the only module of src/stores/ the layers above import (enforced by
// test/architecture/layers.unit.test.ts), so a store's internals can change without touching them.
export type {
  Change,
  Committed,
  Current,
  Decision,
  DocMeta,
  DocumentCheck,
  EntryDraft,
  Finding,
  HistoryEntry,
  Listing,
  Operation,
  ReadResult,
  Store,
} from './store.js';
export { checkNextRevision } from './store.js';
export { checkDocumentKey, SIDECAR } from './keys.js';
export { chooseStore, type StoreChoice } from './choice.js';
export { openStore, type StoreOptions } from './open.js';
export { isStoreFile } from './registry.js';
export { hooksFetch, STORE_SCHEMES } from './schemes.js';
export { MemoryStore } from './memory.js';
export { FileStore, type FileStoreOptions } from './file/file-store.js';
export { exportLines, importLines, type DocumentDump, type ImportOptions, type PortableStore } from './portable.js';
export { migrateStore, openPortable, type StoreTarget } from './transfer.js';
