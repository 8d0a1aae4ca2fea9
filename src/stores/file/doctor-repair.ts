import { constants, copyFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { nextEntry } from '../../core/history-entry.js';
import { isObject } from '../../core/json.js';
import { diff } from '../../core/patch.js';
import { unlinkQuietly, writeFileAtomic } from '../../fs/atomic.js';
import { defaultStaleMs, inspectLock, isStale, withLock } from '../../fs/lock.js';
import { replay } from '../replay.js';
import { segmentEntries, setAsideAfter, setAsideBadLines, tailEntries } from './history-segments.js';
import { FileStore } from './file-store.js';
import { docPaths } from './layout.js';

/** What `baton doctor --repair` does for a failing row of the file store's checks (file-doctor.ts). */
export type Repair =
  | { kind: 'restore' }
  | { kind: 'unlock' }
  | { kind: 'remove-temp'; path: string }
  | { kind: 'history'; path: string }
  | { kind: 'renumber'; keepLines: number }
  | { kind: 'meta'; path: string; schema: string };

/**
 * Carries out what a finding proposes. Nothing is deleted that holds data: a corrupt document is
 * moved aside as FILE.corrupt-<timestamp> before the last good revision is restored.
 */
export async function repair(root: string, file: string, action: Repair, now: Date): Promise<string> {
  switch (action.kind) {
    case 'restore':
      return restore(root, file, now);
    case 'unlock': {
      // Judged again right here: a live writer may have taken the lock since the report.
      const lock = docPaths(file).lock;
      const seen = inspectLock(lock);
      if (!seen || !isStale(seen, defaultStaleMs()))
        return `left the lock ${relative(root, lock)}: a live writer holds it now`;
      unlinkQuietly(lock);
      return `removed stale lock ${relative(root, lock)}`;
    }
    case 'remove-temp':
      unlinkQuietly(action.path);
      return `removed ${relative(root, action.path)}`;
    case 'history':
      // The lock, not a transaction: a transaction would first read the very lines being set aside.
      await withLock(docPaths(file).lock, { label: relative(root, file) }, () =>
        setAsideBadLines(action.path, now.toISOString().replace(/[:.]/g, '-')),
      );
      return `set the bad lines of ${relative(root, action.path)} aside`;
    case 'renumber': {
      const key = relative(root, file);
      const stamp = now.toISOString().replace(/[:.]/g, '-');
      await withLock(docPaths(file).lock, { label: key }, () =>
        setAsideAfter(docPaths(file).history, action.keepLines, stamp),
      );
      // The next transaction finds the document ahead of the kept history and records it as a
      // snapshot revision, so history replays to the document again.
      await new FileStore(root).transact(key, () => ({ result: undefined }));
      return `kept the first ${action.keepLines} history line(s) of ${key}, set the rest aside and recorded the document as a new revision`;
    }
    case 'meta':
      writeFileAtomic(action.path, `${JSON.stringify({ schema: action.schema })}\n`);
      return `rebuilt ${relative(root, action.path)} (schema ${action.schema})`;
  }
}

async function restore(root: string, file: string, now: Date): Promise<string> {
  const store = new FileStore(root);
  const key = relative(root, file);
  const history = docPaths(file).history;
  const aside = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  return store.transact(key, (current) => {
    if (current.state !== 'corrupt') return { result: `${key} was already readable; nothing restored` };
    const entries = segmentEntries(history, current.rev);
    const good = [...entries].reverse().find((entry) => !entry.deleted) ?? tailEntries(history, 1)[0];
    const restored = good ? replay(entries, good.rev, key).doc : null;
    // A copy, not a rename: the commit then replaces the very file it read (its fence checks that).
    copyFileSync(file, aside, constants.COPYFILE_EXCL);
    if (!isObject(restored)) {
      unlinkSync(file);
      return { result: `moved ${key} aside as ${basename(aside)}; no earlier revision to restore` };
    }
    const latest = replay(entries, current.rev, key).doc;
    return {
      result: `moved ${key} aside as ${basename(aside)} and restored revision ${good?.rev} (${dirname(key) === '.' ? '' : `${dirname(key)}/`}${basename(key)})`,
      commit: {
        doc: restored,
        ...nextEntry(
          current.rev,
          restored,
          {
            writer: 'baton-doctor',
            op: { kind: 'repair', rev: good?.rev ?? 0 },
            patch: diff(latest ?? undefined, restored),
          },
          now,
        ),
      },
    };
  });
}
