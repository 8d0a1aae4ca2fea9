import { BatonError } from '../core/errors.js';
import { deepEqual, formatDocument, hashText, isObject, type Json } from '../core/json.js';
import { depthOver } from '../core/limits.js';
import { applyPatch } from '../core/patch.js';
import { checkDocumentKey } from './keys.js';
import type { DocMeta, HistoryEntry } from './store.js';

/** One document's full record: what `baton store export` writes and `baton store import` reads. */
export interface DocumentDump {
  /** The project-relative key (`.claude/state/current-task.json`). */
  key: string;
  /** The stored text exactly ('' when the last revision deleted the document). */
  text: string;
  meta: DocMeta;
  /** Every revision the store keeps, oldest first, exactly as recorded. */
  entries: HistoryEntry[];
}

/** A store whose documents can be listed, read whole with their history, and written whole. */
export interface PortableStore {
  keys(): Promise<string[]>;
  dump(key: string): Promise<DocumentDump>;
  /** Writes a document with its history; refuses (`exists`) a key that already has any. */
  load(dump: DocumentDump): Promise<void>;
  /** Refuses a key this store cannot hold where it would land (the file store: symlinks out, into a sidecar). */
  checkKey?(key: string): void;
}

export interface ImportOptions {
  /** Deepest nesting of a document (limits.maxDepth): deeper lines are refused before any recursive walk. */
  maxDepth: number;
  /** The rules above the store (schema, the gate's protection, the project's): throws to refuse a document. */
  check?(dump: DocumentDump): Promise<void>;
}

const EXPORT_FORMAT = 'baton-export';
const EXPORT_VERSION = 1;

/**
 * The export as JSON Lines: a header, then one document a line. Each line is built from the
 * stored text and entries as they are, so an import writes back exactly what was exported.
 */
export async function* exportLines(store: PortableStore, from: string): AsyncGenerator<string> {
  const keys = await store.keys();
  yield JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, from, documents: keys.length });
  for (const key of keys) yield JSON.stringify(await store.dump(key));
}

/**
 * Reads an export and writes every document into `store`. All of it is checked first (format,
 * each line's shape, depth and history, its key, the rules `options.check` adds, and that no
 * document already has history there), so a refused import writes nothing.
 */
export async function importLines(
  store: PortableStore,
  text: string,
  options: ImportOptions,
): Promise<{ documents: number; revisions: number }> {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const header = parseLine(lines[0] ?? '', 1, options) as { format?: unknown; version?: unknown };
  if (header.format !== EXPORT_FORMAT)
    throw new BatonError(
      'usage',
      `not a baton export (its first line has no "format": "${EXPORT_FORMAT}"); give a file written by 'baton store export'`,
    );
  if (header.version !== EXPORT_VERSION)
    throw new BatonError(
      'usage',
      `baton export version ${String(header.version)} is not ${EXPORT_VERSION}, the one this baton reads; import it with a matching baton`,
    );
  const dumps: DocumentDump[] = [];
  const keys = new Set<string>();
  for (const [i, line] of lines.slice(1).entries()) {
    const number = i + 2;
    const dump = checkDump(parseLine(line, number, options), number);
    if (keys.has(dump.key)) throw refusal(number, `${dump.key} appears twice`);
    keys.add(dump.key);
    await lineCheck(number, async () => {
      checkDocumentKey(dump.key);
      store.checkKey?.(dump.key);
      checkHistory(dump);
      await options.check?.(dump);
    });
    dumps.push(dump);
  }
  const existing = new Set(await store.keys());
  const clash = dumps.find((dump) => existing.has(dump.key));
  if (clash)
    throw new BatonError(
      'exists',
      `${clash.key} already exists in the target store; nothing was imported; import into an empty store or project`,
    );
  let revisions = 0;
  for (const [i, dump] of dumps.entries()) {
    try {
      await store.load(dump);
    } catch (error) {
      // Checked above, so only the store itself fails here (a lost connection, a full disk, a race).
      if (i === 0 || !(error instanceof BatonError)) throw error;
      const done = dumps.slice(0, i).map((d) => d.key);
      throw new BatonError(
        error.code,
        `${error.message.replace(/; nothing was imported/, '')}; imported before it: ${done.join(', ')}; remove those and import again`,
      );
    }
    revisions += dump.entries.length;
  }
  return { documents: dumps.length, revisions };
}

/** Runs one line's checks; a refusal names the line and says nothing was imported. */
async function lineCheck(number: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (!(error instanceof BatonError)) throw error;
    throw new BatonError(error.code, `line ${number} of the export: ${error.message}; nothing was imported`);
  }
}

function refusal(number: number, why: string): BatonError {
  return new BatonError(
    'usage',
    `line ${number} of the export: ${why}; nothing was imported; give a file written by 'baton store export'`,
  );
}

/**
 * The history must be one a store could have written: revisions in order, the first a full copy,
 * each entry's hash that of the document its patches give (an `external` entry records an outside
 * edit's own text, which only the last one's can be checked against), and the text the last one's.
 * A forged revision (a phase marked done with no entry doing it, a hash that does not match) is refused.
 */
function checkHistory(dump: DocumentDump): void {
  const bad = (why: string) =>
    new BatonError('invalid', `the history of ${dump.key} ${why}; export it again with 'baton store export'`);
  if (dump.entries.length === 0) throw bad('is empty');
  let doc: Json | undefined;
  for (const [i, entry] of dump.entries.entries()) {
    if (i === 0 && entry.snapshot === undefined && !entry.deleted)
      throw bad(`starts at revision ${entry.rev} with no full copy`);
    if (!isObject(entry.op as unknown as Json) || typeof entry.hash !== 'string' || !Array.isArray(entry.patch))
      throw bad(`has a malformed entry at revision ${entry.rev}`);
    try {
      // A copy: patches apply in place, and the entries are what gets written.
      doc = entry.deleted
        ? undefined
        : entry.snapshot !== undefined
          ? structuredClone(entry.snapshot)
          : applyPatch(doc, entry.patch);
    } catch (error) {
      throw bad(`does not replay at revision ${entry.rev} (${(error as Error).message})`);
    }
    if (!entry.deleted && !isObject(doc)) throw bad(`has revision ${entry.rev} without a document object`);
    if (entry.op.kind !== 'external' && entry.hash !== (entry.deleted ? '' : hashText(formatDocument(doc as Json))))
      throw bad(`has revision ${entry.rev} whose hash does not match its document`);
  }
  const last = dump.entries.at(-1) as HistoryEntry;
  if (last.hash !== (dump.text === '' ? '' : hashText(dump.text)))
    throw bad(`ends at revision ${last.rev}, whose hash is not that of the document's text`);
  if (dump.text !== '' && !deepEqual(parseText(dump.text, dump.key), doc))
    throw bad(`ends at revision ${last.rev}, whose document is not the text`);
}

function parseText(text: string, key: string): Json {
  try {
    return JSON.parse(text.replace(/^\ufeff/, '')) as Json;
  } catch {
    throw new BatonError('invalid', `the text of ${key} is not JSON; export it again with 'baton store export'`);
  }
}

function parseLine(line: string, number: number, options: ImportOptions): unknown {
  let value: Json;
  try {
    value = JSON.parse(line) as Json;
  } catch {
    throw new BatonError(
      'usage',
      `line ${number} of the export is not JSON; nothing was imported; give a file written by 'baton store export'`,
    );
  }
  // The document sits a few levels down its line (entries[i].snapshot); deeper ones would
  // overflow the stack in the recursive walks below.
  const max = options.maxDepth + LINE_DEPTH;
  if (depthOver(value, max))
    throw new BatonError(
      'too_large',
      `line ${number} of the export is nested deeper than ${max} levels (the depth limit, maxDepth ${options.maxDepth} plus the line's own ${LINE_DEPTH}); nothing was imported; raise "limits": {"maxDepth": N} in baton.config.json if the documents are that deep`,
    );
  return value;
}

/** How deep a document lies in its export line: line, entries, entry, snapshot, patch op. */
const LINE_DEPTH = 4;

function checkDump(value: unknown, number: number): DocumentDump {
  const dump = value as Partial<DocumentDump> | null;
  const ok =
    typeof dump === 'object' &&
    dump !== null &&
    typeof dump.key === 'string' &&
    typeof dump.text === 'string' &&
    typeof dump.meta === 'object' &&
    dump.meta !== null &&
    Array.isArray(dump.entries) &&
    dump.entries.every(
      (entry, i, all) =>
        typeof entry?.rev === 'number' && (i === 0 || entry.rev === (all[i - 1] as HistoryEntry).rev + 1),
    );
  if (!ok)
    throw new BatonError(
      'usage',
      `line ${number} of the export is not a document with key, text, meta and consecutive entries; nothing was imported; give a file written by 'baton store export'`,
    );
  return dump as DocumentDump;
}
