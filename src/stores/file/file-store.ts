import { existsSync, statSync, unlinkSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { BatonError, fromSystemError, isBatonError } from '../../core/errors.js';
import { hashText, type Json } from '../../core/json.js';
import { depthOver, MAX_DEPTH_CEILING } from '../../core/limits.js';
import { isoString } from '../../core/iso-time.js';
import {
  checkNextRevision,
  type Change,
  type Current,
  type Decision,
  type DocMeta,
  type DocumentCheck,
  type HistoryEntry,
  type Listing,
  type ReadResult,
  type Store,
} from '../store.js';
import { fsyncDir, makeDir, writeFileAtomic } from '../../fs/atomic.js';
import { ignoreLocalState } from '../../fs/local-state-folder.js';
import { DOCUMENT_FILE_MAX_BYTES, isReadRefusal, METADATA_MAX_BYTES, readFileBounded } from '../../fs/bounded-read.js';
import { readKept } from '../../fs/kept-reads.js';
import { absent } from '../../fs/absent.js';
import {
  appendEntry,
  DEFAULT_HISTORY_KEEP,
  dropLastEntry,
  isTail,
  recentEntries,
  repairTornTail,
  rollbackEntry,
  segmentEntries,
  segmentFiles,
  tailEntries,
  type Appended,
} from './history-segments.js';
import { DEFAULT_LOCK_TIMEOUT_MS, runtimeOptions } from '../../core/runtime-options.js';
import { withLock, type LockHandle } from '../../fs/lock.js';
import { checkedDocFile, checkedDocPaths, type DocPaths } from './layout.js';
import { replay } from '../replay.js';
import { findDocuments, unlistedFolder } from './find-documents.js';

export interface FileStoreOptions {
  /** Lock wait budget: how long the lock may stay with one holder while we wait (default 30 s). */
  lockTimeoutMs?: number;
  /** Heartbeat age past which a lock held from another host is taken over (default 60 s, or BATON_LOCK_STALE_MS). */
  lockStaleMs?: number;
  /** Revisions of history to keep per document (default 10,000; 0 keeps everything). */
  historyKeep?: number;
  /** Clock of the `external` revisions this store records for outside edits, injectable for tests. */
  now?: () => Date;
}

/**
 * The embedded store: one JSON file per document, with a `.baton/` folder beside it for the lock,
 * the metadata and the history. Commit order is history line (fsynced), then the document (atomic
 * replace), then the metadata, then the engine's `committed` step (mirrors), all under the lock;
 * the next writer reconciles a crash between any two of these steps.
 */
export class FileStore implements Store {
  readonly kind = 'file';
  readonly root: string;
  private readonly options: Required<Omit<FileStoreOptions, 'now'>> & { now: () => Date };

  constructor(root: string, options: FileStoreOptions = {}) {
    this.root = resolve(root);
    this.options = {
      lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      // lock.ts's defaultStaleMs, read here: the commands that only read load the lock on its first
      // call (scripts/cli-bundles.mjs, ON_CALL), and every one builds a store.
      lockStaleMs: options.lockStaleMs ?? runtimeOptions(process.env).lockStaleMs,
      historyKeep: options.historyKeep ?? DEFAULT_HISTORY_KEEP,
      now: options.now ?? (() => new Date()),
    };
  }

  paths(key: string): DocPaths {
    return checkedDocPaths(this.root, key);
  }

  async read(key: string): Promise<ReadResult> {
    return readDocument(checkedDocFile(this.root, key));
  }

  /**
   * `parse` of the document, for a resident server (`baton serve`): kept in memory while one stat
   * shows its file unchanged (fs/kept-reads.ts has the rule), so a decision neither opens nor
   * parses it; elsewhere read as read() reads it. Undefined when there is none. A file read()
   * would not return as a document, or a path the store refuses (a link out of the project or
   * into a sidecar, checked as read() checks it), throws: the caller reads through read(), whose
   * error says why. `parse` must be one function for the process, as readKept's.
   */
  readKept<T>(key: string, parse: (doc: Json) => T): T | undefined {
    const file = join(this.root, key);
    // The common case, no such document (a project without a board), told without the exception
    // a failed open throws; a path that cannot be looked at is the read's to report.
    if (absent(file)) return undefined;
    let value: T;
    try {
      value = readKept(file, DOCUMENT_FILE_MAX_BYTES, `document ${file}`, READ_FIX, documentParser(parse));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    // Whether the file read is the one read() would read: after the read, as read() checks before it.
    if (checkedDocFile(this.root, key) !== file) throw new BatonError('unsafe_path', `${key} is not read as ${file}`);
    return value;
  }

  async transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T> {
    const paths = this.paths(key);
    if (!existsSync(dirname(paths.file))) {
      // No folder, so no document: decide without creating anything (a hook's `update
      // --if-exists` must not leave folders in a project that has no task). Only a commit creates
      // the folders, and then the decision is made again under the lock.
      const decision = await fn({ state: 'missing', rev: 0, meta: {} });
      if (!decision.commit) return decision.result;
    }
    try {
      let committed = false;
      const result = await withLock(
        paths.lock,
        { timeoutMs: this.options.lockTimeoutMs, staleMs: this.options.lockStaleMs, label: key },
        async (lock) => {
          const read = readDocument(paths.file);
          const rev = this.reconcile(paths, read);
          const decision = await fn({ ...read, rev, meta: readMeta(paths.meta) });
          if (decision.commit) {
            checkNextRevision(decision.commit, rev, key);
            this.commit(paths, decision.commit, () => fence(lock, paths.file, read, key));
            committed = true;
            decision.committed?.();
          }
          return decision.result;
        },
      );
      // The rename is made durable after the lock is released, before the write is reported done:
      // the next writer need not wait for this flush (one of a commit's three), and the folder's
      // fsync persists our rename or a later one that replaced it, so nothing reported is lost.
      if (committed) fsyncDir(dirname(paths.file));
      return result;
    } catch (error) {
      throw fromSystemError(error) ?? error;
    }
  }

  /**
   * The documents with a `.baton/` sidecar under the root whose file is there (a cleared one has
   * none), and each folder that cannot be listed, with its error: its documents are not known.
   */
  async list(): Promise<Listing[]> {
    const listed: Listing[] = [];
    const key = (path: string) => relative(this.root, path).split(sep).join('/');
    const unlisted = (folder: string, error: unknown) =>
      listed.push({
        key: `${key(folder)}/`,
        time: new Date(0).toISOString(),
        error: unlistedFolder(folder, error, 'the documents in it are not listed'),
      });
    for (const { folder, names } of findDocuments(this.root, undefined, unlisted))
      for (const name of names) {
        const file = join(folder, name);
        let mtime: Date;
        try {
          const stat = statSync(file);
          if (!stat.isFile()) continue;
          mtime = stat.mtime;
        } catch {
          continue;
        }
        listed.push({ key: key(file), time: mtime.toISOString() });
      }
    return listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async history(key: string, options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    return recentEntries(this.paths(key).history, options.limit ?? 20);
  }

  async revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }> {
    return replay(segmentEntries(this.paths(key).history, rev), rev, key);
  }

  watch(key: string, listener: () => void): () => void {
    const { file } = this.paths(key);
    const name = basename(file);
    let timer: NodeJS.Timeout | undefined;
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(dirname(file), (_event, changed) => {
        if (changed !== name) return;
        clearTimeout(timer);
        timer = setTimeout(listener, 15);
      });
    } catch {
      throw new BatonError(
        'not_found',
        `cannot watch ${key}: its folder does not exist yet; create the document first`,
      );
    }
    return () => {
      clearTimeout(timer);
      watcher?.close();
    };
  }

  /** Every document under the root, checked by the file store's own rules (loaded only for the doctor). */
  async doctor(): Promise<DocumentCheck[]> {
    const { checkFileStore } = await import('./file-doctor.js');
    return checkFileStore(this.root);
  }

  async close(): Promise<void> {}

  /**
   * Brings history in line with the file before anything new is committed: drops a torn or
   * uncommitted tail line, and records an outside edit as an `external` snapshot revision (the one
   * entry a store writes itself: only the file store can be edited behind the engine's back).
   */
  private reconcile(paths: DocPaths, read: ReadResult): number {
    // Listed once for both: a repair shortens the last segment, never removes it.
    const segments = segmentFiles(paths.history);
    repairTornTail(paths.history, segments);
    const [previous, last] = padTail(tailEntries(paths.history, 2, segments));
    if (matches(last, read)) return last?.rev ?? 0;
    if (last && matches(previous, read)) {
      dropLastEntry(paths.history);
      return previous?.rev ?? 0;
    }
    if (read.state === 'corrupt') return last?.rev ?? 0;
    const rev = (last?.rev ?? 0) + 1;
    const doc = read.state === 'ok' ? read.doc : null;
    this.appendHistory(paths, {
      rev,
      time: isoString(this.options.now()),
      op: { kind: 'external' },
      patch: [],
      hash: read.state === 'ok' ? hashText(read.text) : '',
      ...(doc === null ? { deleted: true } : {}),
      snapshot: doc,
    });
    return rev;
  }

  /**
   * History line, then the document. Both are fenced: the writer proves it still holds the lock
   * and that the document is the one it read, before the line and again right before the rename.
   * When the document does not land (a fence fails, a full disk, a read-only folder), the line is
   * taken back, so history never holds a revision that was not written.
   */
  private commit(paths: DocPaths, change: Change, fence: () => void): void {
    fence();
    ensureSidecar(paths.sidecar);
    const appended = this.appendHistory(paths, change.entry);
    const fenceAgain = () => {
      fence();
      if (!isTail(appended))
        throw new BatonError(
          'lock_lost',
          `history of ${paths.file} gained a line from another writer during this commit; nothing was written; retry`,
        );
    };
    try {
      if (change.doc === null) {
        if (existsSync(paths.file)) {
          fenceAgain();
          unlinkSync(paths.file);
        }
      } else {
        writeFileAtomic(paths.file, change.text, { mode: 0o644, syncDir: false, beforeRename: fenceAgain });
      }
    } catch (error) {
      // Nothing here fails after the rename (the folder's fsync comes later), so the document did
      // not land and its line goes.
      rollbackEntry(appended);
      throw error;
    }
    if (change.meta) writeFileAtomic(paths.meta, `${JSON.stringify(change.meta)}\n`);
  }

  private appendHistory(paths: DocPaths, entry: HistoryEntry): Appended {
    return appendEntry(paths.history, entry, this.options.historyKeep);
  }
}

/** The `.baton/` folder beside documents, ignored by git (fs/local-state-folder.ts). */
export function ensureSidecar(sidecar: string): void {
  if (existsSync(join(sidecar, '.gitignore'))) return;
  makeDir(sidecar);
  ignoreLocalState(sidecar);
}

export function readDocument(file: string): ReadResult {
  const text = readDocumentText(file);
  return text === undefined ? { state: 'missing' } : documentFromText(text);
}

/** A document file's text, or undefined when there is none. */
function readDocumentText(file: string): string | undefined {
  try {
    return readFileBounded(
      file,
      DOCUMENT_FILE_MAX_BYTES,
      `document ${file}`,
      'baton never writes one that large (maxDocumentBytes); shrink it, or move it aside and recreate it',
    );
  } catch (error) {
    if (isBatonError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new BatonError('io', `cannot read ${file}: ${(error as Error).message}; check its permissions`);
  }
}

const READ_FIX = 'baton never writes one that large (maxDocumentBytes); shrink it, or move it aside and recreate it';

/** The text parser of readKept for each document parser: one function per parser, as readKept keys by it. */
const parsers = new WeakMap<(doc: Json) => unknown, (text: string) => unknown>();

function documentParser<T>(parse: (doc: Json) => T): (text: string) => T {
  let parser = parsers.get(parse);
  if (!parser) {
    parser = (text: string) => {
      const read = documentFromText(text);
      if (read.state !== 'ok') throw new BatonError('corrupt', 'the document is not JSON');
      return parse(read.doc);
    };
    parsers.set(parse, parser);
  }
  return parser as (text: string) => T;
}

/** A document file's text as the store reads it: the JSON, or why it is corrupt. */
function documentFromText(text: string): ReadResult {
  // Windows editors save UTF-8 with a byte-order mark, which JSON.parse (and jq) refuse. It is
  // read as the JSON it is; the next write, formatted by baton, has none.
  const bom = text.charCodeAt(0) === 0xfeff;
  let doc: Json;
  try {
    doc = JSON.parse(bom ? text.slice(1) : text) as Json;
  } catch (error) {
    return { state: 'corrupt', text, error: (error as Error).message };
  }
  // A file edited outside baton may nest deeper than anything baton walks without overflowing.
  if (depthOver(doc, MAX_DEPTH_CEILING))
    return {
      state: 'corrupt',
      text,
      error: `nested deeper than ${MAX_DEPTH_CEILING} levels, more than baton can process`,
    };
  return bom ? { state: 'ok', doc, text, bom } : { state: 'ok', doc, text };
}

const META_FIX = "baton writes only a schema's name there; run 'baton doctor --repair' to rebuild it from history";

/**
 * The document's metadata (its schema). Missing means defaults; unreadable is an error, never a
 * silent fallback: that would drop the document's schema and let any write through.
 */
export function readMeta(file: string): DocMeta {
  let text: string;
  try {
    text = readFileBounded(file, METADATA_MAX_BYTES, `metadata ${file}`, META_FIX);
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return {};
  }
  try {
    const meta = JSON.parse(text) as DocMeta | null;
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) return meta;
  } catch {
    // reported below
  }
  throw new BatonError(
    'corrupt',
    `metadata file ${file} is not a JSON object; run 'baton doctor --repair' to rebuild it from history (when history does not name the schema, baton doctor says what to do)`,
  );
}

/**
 * Proves the lock is still ours and the document is still what was read under it. Compared as
 * text: a read's state follows from its text alone, so parsing it again (twice per commit, under
 * the lock every other writer waits on: 8 ms of CPU for a 1 MiB document) would tell nothing more.
 */
function fence(lock: LockHandle, file: string, read: ReadResult, key: string): void {
  lock.verify();
  const now = readDocumentText(file);
  const same = read.state === 'missing' ? now === undefined : now === read.text;
  if (!same)
    throw new BatonError(
      'lock_lost',
      `${key} changed on disk while this write held its lock (a writer that ignores the lock, or one on another host); nothing was written; retry`,
    );
}

function padTail(entries: HistoryEntry[]): [HistoryEntry | undefined, HistoryEntry | undefined] {
  return entries.length >= 2 ? [entries[entries.length - 2], entries[entries.length - 1]] : [undefined, entries[0]];
}

function matches(entry: HistoryEntry | undefined, read: ReadResult): boolean {
  if (!entry) return read.state === 'missing';
  if (entry.deleted) return read.state === 'missing';
  return read.state !== 'missing' && entry.hash === hashText(read.text);
}
