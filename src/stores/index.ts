// The stores' public entry: the only module of src/stores/ the layers above import (enforced by
// test/architecture/layers.test.ts), so a store's internals can change without touching them.
export type {
  Change,
  Current,
  Decision,
  DocMeta,
  EntryDraft,
  HistoryEntry,
  Operation,
  ReadResult,
  Store,
} from './store.js';
export { MemoryStore } from './memory.js';
export { FileStore, readDocument, readMeta, type FileStoreOptions } from './file/index.js';
export { SIDECAR } from './file/layout.js';
export { findDocuments } from './file/find-documents.js';
