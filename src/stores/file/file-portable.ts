import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BatonError } from '../../core/errors.js';
import { findDocuments, unlistedFolder } from './find-documents.js';
import type { PortableStore } from '../portable.js';
import type { HistoryEntry } from '../store.js';
import { makeDir, writeFileAtomic } from '../../fs/atomic.js';
import { segmentEntries, segmentFiles, segmentPath } from './history-segments.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../../core/runtime-options.js';
import { defaultStaleMs, withLock } from '../../fs/lock.js';
import { ensureSidecar, FileStore, readDocument, readMeta } from './file-store.js';

/** The file store's documents for export and import: every document under the root with history. */
export function portableFileStore(store: FileStore): PortableStore {
  return {
    async keys() {
      const keys: string[] = [];
      // An export that left out a folder's documents would pass for the whole store: it is refused.
      const unlisted = (folder: string, error: unknown) => {
        throw new BatonError('io', unlistedFolder(folder, error, 'its documents cannot be exported'), { cause: error });
      };
      for (const { folder, names } of findDocuments(store.root, undefined, unlisted))
        for (const name of names) {
          const key = relative(store.root, join(folder, name)).split(sep).join('/');
          if (segmentFiles(store.paths(key).history).length > 0) keys.push(key);
        }
      return keys.sort();
    },
    async dump(key) {
      // An outside edit not yet recorded is recorded first (what the next write would do), so the
      // exported text is the one the newest entry hashes.
      await store.transact(key, () => ({ result: undefined }));
      const paths = store.paths(key);
      const entries: HistoryEntry[] = [];
      for (const file of segmentFiles(paths.history))
        entries.push(...segmentEntries(paths.history, Number(/(\d+)\.jsonl$/.exec(file)?.[1])));
      const read = readDocument(paths.file);
      return {
        key,
        text: read.state === 'missing' ? '' : read.text,
        meta: readMeta(paths.meta),
        entries,
      };
    },
    checkKey(key) {
      store.paths(key);
    },
    async load(dump) {
      const paths = store.paths(dump.key);
      await withLock(
        paths.lock,
        { timeoutMs: DEFAULT_LOCK_TIMEOUT_MS, staleMs: defaultStaleMs(), label: dump.key },
        async () => {
          if (existsSync(paths.file) || segmentFiles(paths.history).length > 0)
            throw new BatonError(
              'exists',
              `${dump.key} already exists in the file store; nothing was imported; import into an empty project`,
            );
          // History first, the document last: until the document lands, the next writer's
          // reconcile sees history without its file, as after any interrupted commit.
          ensureSidecar(paths.sidecar);
          makeDir(paths.history);
          const segments = new Map<string, string[]>();
          for (const entry of dump.entries) {
            const file = segmentPath(paths.history, entry.rev);
            const lines = segments.get(file) ?? [];
            lines.push(`${JSON.stringify(entry)}\n`);
            segments.set(file, lines);
          }
          for (const [file, lines] of segments) writeFileAtomic(file, lines.join(''));
          if (Object.keys(dump.meta).length > 0) writeFileAtomic(paths.meta, `${JSON.stringify(dump.meta)}\n`);
          if (dump.text !== '') writeFileAtomic(paths.file, dump.text, { mode: 0o644 });
        },
      );
    },
  };
}
