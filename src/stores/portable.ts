import { BatonError } from '../core/errors.js';
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
 * lines, and that no document already has history there), so a refused import writes nothing.
 */
export async function importLines(
  store: PortableStore,
  text: string,
): Promise<{ documents: number; revisions: number }> {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const header = parseLine(lines[0] ?? '', 1) as { format?: unknown; version?: unknown };
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
  const dumps = lines.slice(1).map((line, i) => checkDump(parseLine(line, i + 2), i + 2));
  const existing = new Set(await store.keys());
  const clash = dumps.find((dump) => existing.has(dump.key));
  if (clash)
    throw new BatonError(
      'exists',
      `${clash.key} already exists in the target store; nothing was imported; import into an empty store or project`,
    );
  let revisions = 0;
  for (const dump of dumps) {
    await store.load(dump);
    revisions += dump.entries.length;
  }
  return { documents: dumps.length, revisions };
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new BatonError(
      'usage',
      `line ${number} of the export is not JSON; give a file written by 'baton store export'`,
    );
  }
}

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
      `line ${number} of the export is not a document with key, text, meta and consecutive entries; give a file written by 'baton store export'`,
    );
  return dump as DocumentDump;
}
