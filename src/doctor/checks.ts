/**
 * The doctor asks the store: each store checks what it holds in its own terms (the file store:
 * files, history segments, locks) and proposes its repairs; the doctor adds the engine's checks of
 * each readable document (its schema, and this machine's mirror files) and reports.
 */
import { absent, unreadable } from '../fs/absent.js';
import { relative } from 'node:path';
import { fromSystemError, isBatonError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import { mirrorHolds, mirrorTargets, writeMirrors, type Mirror } from '../doc/mirrors.js';
import { loadSchema } from '../doc/schemas.js';
import { projectContext } from '../project/project-context.js';
import type { DocMeta, Finding, Store } from '../stores/index.js';
import { isReadRefusal, readFileBounded, SMALL_FILE_MAX_BYTES } from '../fs/bounded-read.js';

export type { Finding } from '../stores/index.js';

export async function checkStore(store: Store, root: string): Promise<Finding[]> {
  const checks = await store.doctor?.();
  if (checks === undefined) return [{ ok: true, check: `the ${store.kind} store has no checks of its own`, fix: '—' }];
  const rows: Finding[] = [];
  for (const check of checks) {
    rows.push(...check.rows);
    if (check.meta) rows.push(...(await documentRows(store, root, check.key, check.meta)));
  }
  return rows;
}

/** The document against its schema, and each mirror file against the document. */
async function documentRows(store: Store, root: string, key: string, meta: DocMeta): Promise<Finding[]> {
  const rows: Finding[] = [];
  try {
    const read = await store.read(key);
    if (read.state !== 'ok') return rows;
    const schema = await loadSchema(meta.schema, root);
    const issues = schema.validate(read.doc);
    const ok = issues.length === 0;
    rows.push({
      ok,
      check: `${key} matches schema ${schema.name}`,
      fix: ok
        ? '—'
        : `${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}; fix with baton set/update or baton revert`,
    });
    // The same targets and refusals as a write: a repair never lands where a commit may not.
    let mirrors: Mirror[];
    try {
      const project = projectContext({ cwd: root, env: {} });
      mirrors = await mirrorTargets({ root, key, store, project }, schema, isObject(read.doc) ? read.doc : null);
    } catch (error) {
      if (!isBatonError(error)) throw error;
      rows.push({ ok: false, check: `${key} mirrors can be written`, fix: error.message });
      return rows;
    }
    for (const [i, mirror] of mirrors.entries()) {
      const rule = schema.rules.mirrors[i] as (typeof schema.rules.mirrors)[number];
      const check = `${key} mirror ${rule.file} = ${rule.field}`;
      let have: string | undefined;
      try {
        have = readMirrorForDoctor(mirror.file);
      } catch (error) {
        if (absent(mirror.file)) have = undefined;
        else {
          // There but not readable (a link loop, a folder this user may not enter): not "missing",
          // and not for --repair, whose write would meet the same wall. The gates deny with this line.
          rows.push({ ok: false, check, fix: unreadable('mirror', mirror.file, error).message });
          continue;
        }
      }
      rows.push(
        mirrorHolds(mirror)
          ? { ok: true, check, fix: '—' }
          : {
              ok: false,
              check,
              fix: `baton doctor --repair rewrites ${rule.file} from the JSON (${JSON.stringify(have?.trim() ?? null)} vs ${JSON.stringify(mirror.content.trim())})`,
              repair: async () => {
                writeMirrors(root, [mirror]);
                return `rewrote ${relative(root, mirror.file)}`;
              },
            },
      );
    }
  } catch (error) {
    const known = isBatonError(error) ? error : fromSystemError(error);
    if (!known && !(error instanceof Error)) throw error;
    rows.push({ ok: false, check: `${key} schema loads`, fix: (known ?? (error as Error)).message });
  }
  return rows;
}

/** A mirror's text as the row shows it; a refused read (huge, a FIFO) shows why instead. */
function readMirrorForDoctor(file: string): string {
  try {
    return readFileBounded(file, SMALL_FILE_MAX_BYTES, `mirror ${file}`, 'baton doctor --repair rewrites it');
  } catch (error) {
    if (isReadRefusal(error)) return `(${error.message})`;
    throw error;
  }
}
