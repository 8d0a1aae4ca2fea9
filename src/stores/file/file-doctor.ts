/**
 * The file store's own checks for `baton doctor`: what crashes, full disks and old bugs leave in
 * the files (temp files and locks of dead writers, a folder where a document was, unreadable
 * history lines, revisions out of order, a corrupt document, unreadable metadata, an outside
 * edit, a stale lock). Each failing row carries its repair (doctor-repair.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fromSystemError, isBatonError } from '../../core/errors.js';
import type { HistoryEntry } from '../../core/history-entry.js';
import { hashText, type Json } from '../../core/json.js';
import { TEMP_FILE_PATTERN } from '../../fs/atomic.js';
import { isTempOf } from '../../fs/file-names.js';
import { namesIn } from '../../fs/stat.js';
import { defaultStaleMs, inspectLock, isStale, pidAlive, STALE_ASIDE_PATTERN } from '../../fs/lock.js';
import { replay } from '../replay.js';
import type { DocMeta, DocumentCheck, Finding } from '../store.js';
import { repair, type Repair } from './doctor-repair.js';
import { findDocuments, unlistedFolder } from './find-documents.js';
import {
  damagedSegments,
  readSegment,
  revisionOrder,
  segmentEntries,
  segmentFiles,
  tailEntries,
} from './history-segments.js';
import { readDocument, readMeta } from './file-store.js';
import { docPaths, type DocPaths } from './layout.js';

/** Every document under `root` with a `.baton/` sidecar, each with its rows. */
export function checkFileStore(root: string): DocumentCheck[] {
  const checks: DocumentCheck[] = [];
  // A folder the walk cannot list may hold documents: a failing row, not silence.
  const unlisted = (folder: string, error: unknown) => {
    const key = relative(root, folder) || folder;
    checks.push({
      key,
      rows: [
        {
          ok: false,
          check: `${key} can be listed`,
          fix: unlistedFolder(folder, error, 'the documents in it cannot be checked'),
        },
      ],
    });
  };
  for (const { folder, names } of findDocuments(root, undefined, unlisted))
    for (const name of names) checks.push(checkDocument(root, join(folder, name)));
  return checks;
}

/** Every check for one document; an error checking it is a failing row, and the report goes on. */
function checkDocument(root: string, file: string): DocumentCheck {
  const key = relative(root, file) || file;
  try {
    return checkOne(root, file, key);
  } catch (error) {
    const known = isBatonError(error) ? error : fromSystemError(error);
    if (!known) throw error;
    return { key, rows: [{ ok: false, check: `${key} can be checked`, fix: known.message }] };
  }
}

/** Each check pushes a row, pass or fail, so the report shows what held. */
function checkOne(root: string, file: string, name: string): DocumentCheck {
  const paths = docPaths(file);
  const rows: Finding[] = [];
  const add = (ok: boolean, check: string, fix: string, action?: Repair) =>
    rows.push({
      ok,
      check,
      fix: ok ? '—' : fix,
      ...(action && !ok ? { repair: (now: Date) => repair(root, file, action, now) } : {}),
    });
  for (const path of leftovers(file)) {
    const what = STALE_ASIDE_PATTERN.test(basename(path)) ? 'stale lock' : 'temp file';
    add(
      false,
      `leftover ${what} ${relative(root, path)}`,
      'baton doctor --repair removes it (left by a writer that died or ran out of disk; the document never depended on it)',
      { kind: 'remove-temp', path },
    );
  }
  if (isFolder(file)) {
    add(
      false,
      `${name} is a JSON document`,
      `${name} is a folder; move it away, then 'baton revert ${name} --rev N' restores the document from its history`,
    );
    return { key: name, rows };
  }
  const read = readDocument(file);
  const damaged = damagedSegments(paths.history);
  for (const segment of damaged) {
    add(
      false,
      `${name} history ${basename(segment.file)} is readable`,
      `baton doctor --repair sets its ${segment.bad} bad line(s) aside (the file is kept as ${basename(segment.file)}.corrupt-<time>)`,
      { kind: 'history', path: segment.file },
    );
  }
  if (damaged.length > 0) return { key: name, rows };
  const order = revisionOrder(paths.history);
  if (order) {
    add(
      false,
      `${name} history revisions are unique and in order`,
      `r${order.bad} follows r${order.previous} (two writers committed on one revision); baton doctor --repair keeps history through r${order.previous}, sets the rest aside (.corrupt-<time>) and records the document as a new revision`,
      { kind: 'renumber', keepLines: order.keep },
    );
    return { key: name, rows };
  }
  const last = tailEntries(paths.history, 1)[0];

  if (read.state === 'corrupt') {
    add(
      false,
      `${name} parses`,
      last
        ? `baton doctor --repair (moves it aside, restores revision ${lastGood(paths.history, last.rev)})`
        : `no history to restore from; fix ${name} by hand`,
      last ? { kind: 'restore' } : undefined,
    );
  } else {
    add(
      true,
      `${name} ${read.state === 'missing' ? 'is absent (cleared)' : read.bom ? 'parses (after its UTF-8 byte-order mark, which the next write removes)' : 'parses'}`,
      '',
    );
  }
  const meta = readMetaRow(paths, name, add);
  if (last) {
    const matches = last.deleted
      ? read.state === 'missing'
      : read.state !== 'missing' && last.hash === hashText(read.text);
    const replays =
      matches && read.state === 'ok'
        ? sameJson(replay(segmentEntries(paths.history, last.rev), last.rev, name).doc, read.doc)
        : matches;
    add(
      replays || read.state === 'corrupt',
      `${name} history replays to the document (r${last.rev})`,
      matches
        ? 'history patches do not rebuild the document; report this as a bug'
        : `the file was edited outside baton; any baton write records it as a new revision`,
    );
  }
  const lock = inspectLock(paths.lock);
  if (lock) {
    const stale = isStale(lock, defaultStaleMs());
    const who = lock.owner ? `pid ${lock.owner.pid} on ${lock.owner.host}` : 'an unreadable owner';
    add(
      !stale,
      `${name} lock ${stale ? 'is stale' : 'is held'} (${who})`,
      'baton doctor --repair removes the stale lock (writers also take it over on their own)',
      { kind: 'unlock' },
    );
  }
  return read.state === 'ok' && meta ? { key: name, rows, meta } : { key: name, rows };
}

type AddRow = (ok: boolean, check: string, fix: string, repair?: Repair) => void;

/** The metadata, or a failing row (and undefined) when it cannot be read. */
function readMetaRow(paths: DocPaths, name: string, add: AddRow): DocMeta | undefined {
  try {
    return readMeta(paths.meta);
  } catch {
    const schema = schemaFromHistory(paths.history);
    if (schema)
      add(
        false,
        `${name} metadata is readable`,
        `baton doctor --repair rewrites it (schema ${schema}, from the init revision)`,
        { kind: 'meta', path: paths.meta, schema },
      );
    else
      add(
        false,
        `${name} metadata is readable`,
        `history does not name the schema: run baton init ${name} --force --schema NAME, or delete ${paths.meta} to use the default`,
      );
    return undefined;
  }
}

/** The schema the newest init revision chose. */
function schemaFromHistory(historyDir: string): string | undefined {
  for (const file of segmentFiles(historyDir).reverse()) {
    const lines = readSegment(file)
      .split('\n')
      .filter((line) => line !== '')
      .reverse();
    for (const line of lines) {
      const entry = JSON.parse(line) as HistoryEntry;
      if (entry.op.kind === 'init' && entry.op.schema) return entry.op.schema;
    }
  }
  return undefined;
}

function lastGood(historyDir: string, rev: number): number {
  const entries = segmentEntries(historyDir, rev);
  return [...entries].reverse().find((entry) => !entry.deleted)?.rev ?? rev;
}

/**
 * Files dead writers leave: temp files (`.NAME.PID.HEX.tmp`) of the document, its lock, the lock's
 * steal guard and its metadata, and locks a taker renamed aside and was killed before deleting
 * (`NAME.lock.stale.HEX`).
 */
function leftovers(file: string): string[] {
  const paths = docPaths(file);
  const lock = basename(paths.lock);
  let aside: string[] = [];
  try {
    aside = readdirSync(paths.sidecar).filter((name) => {
      const of = STALE_ASIDE_PATTERN.exec(name)?.[1];
      return of === lock || of === `${lock}.steal`;
    });
  } catch {
    // no sidecar, nothing left in it
  }
  return [
    ...tempsIn(dirname(file), [basename(file)]),
    ...tempsIn(paths.sidecar, [lock, `${lock}.steal`, basename(paths.meta)]),
    ...aside.map((name) => join(paths.sidecar, name)),
  ];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function tempsIn(dir: string, targets: string[]): string[] {
  return namesIn(dir)
    .map((name) => ({ name, match: TEMP_FILE_PATTERN.exec(name) }))
    .filter(
      ({ match }) =>
        match?.[1] !== undefined &&
        targets.some((target) => isTempOf(match[1] as string, target)) &&
        !pidAlive(Number(match[2])),
    )
    .map(({ name }) => join(dir, name));
}

function sameJson(a: Json | null, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
