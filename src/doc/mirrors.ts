import { existsSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { statFollowing } from '../fs/absent.js';
import { BatonError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { SchemaRules } from '../core/schema/schema.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { mkdirInside, realTarget, resolveKey } from '../fs/confine.js';
import type { Protection } from '../project/policy/protect.js';
import type { ProjectContext } from '../project/project-context.js';
import type { Store } from '../stores/index.js';
import { mirrorFiles, mirrorHolds, type Mirror } from './mirror-files.js';

export { mirrorHolds, type Mirror } from './mirror-files.js';

/** Where the mirror files of one document may be written: what the engine asks before each. */
export interface MirrorPlace {
  root: string;
  key: string;
  store: Store;
  project: ProjectContext;
}

/**
 * The mirror files of the document `key` under `root`, on this machine whatever the store. Checked
 * before the commit: a mirror that cannot be written (a folder in its place, a symlink out of the
 * document's folder) or may not be (see mayWrite) refuses the whole write instead of failing after it.
 * With `stale`, only the mirrors that do not already say what they should: nothing is written over
 * one that does (writeMirrors), so where it may be written is not asked. That question (the gate's
 * config, the phase state, its globs, the real path of every file it compares) was about a fifth of
 * a warm write, and a mirror most writes leave as it was.
 */
export async function mirrorTargets(
  place: MirrorPlace,
  schema: Pick<SchemaRules, 'name' | 'rules'>,
  doc: JsonObject | null,
  { stale = false }: { stale?: boolean } = {},
): Promise<Mirror[]> {
  if (schema.rules.mirrors.length === 0) return [];
  const folder = dirname(resolve(place.root, place.key));
  const mirrors: Mirror[] = [];
  let guard: Protection | undefined;
  for (const [i, mirror] of mirrorFiles(schema.rules, doc).entries()) {
    const target = join(folder, mirror.file);
    if (statOrMissing(target)?.isFile() === false) {
      throw new BatonError(
        'unsafe_path',
        `mirror file ${target} is not a regular file (a folder?); remove or move it, nothing was written`,
      );
    }
    // Confined first, whether or not it is written: a link out of the document's folder refuses.
    const file = resolveKey(folder, mirror.file);
    if (stale && mirrorHolds({ file, content: mirror.content })) continue;
    // The gate's policy (and with it the config's validator, the profiles) is loaded for a mirror
    // that would change: initialising those modules cost every write 1.5 M instructions, and most
    // writes leave their mirrors as they were.
    guard ??= (await import('../project/policy/protect.js')).protection(place.project);
    await mayWrite(place, guard, file, schema.rules.mirrors[i]?.field ?? '', schema.name);
    mirrors.push({ file, content: mirror.content });
  }
  return mirrors;
}

/**
 * A schema is data anyone may write, and baton a command any agent may run: a mirror is refused
 * when it would land where the gate protects now (a test file in GREEN, `.env`), on baton's state
 * or rules (a sidecar, another configured document or mirror, the config, a schema file), or on
 * another document. The document's own mirror as baton.config.json configures it is baton's to write.
 */
async function mayWrite(
  place: MirrorPlace,
  guard: Protection,
  file: string,
  field: string,
  schemaName: string,
): Promise<void> {
  const refuse = (why: string) =>
    new BatonError(
      'forbidden',
      `mirror file ${relative(place.root, file) || file} of ${place.key} (schema ${schemaName}) is refused: ${why}; nothing was written, fix the schema's mirrors`,
    );
  // Each real path once: resolving one is a system call per folder on the way, on every write.
  const realFile = realTarget(file);
  const realOwn = realTarget(resolve(place.root, place.key));
  if (realFile === realOwn) throw refuse('it is the document itself');
  const configured = Object.values(guard.config?.documents ?? {})
    .filter((entry) => realTarget(resolve(place.project.root, entry.path)) === realOwn)
    .flatMap((entry) => {
      const mirror = entry.mirrors?.[field];
      return mirror ? [resolve(place.project.root, mirror.file)] : [];
    });
  const hit = guard.check(file, { all: configured });
  if (hit) throw refuse(hit.message);
  const key = relative(realTarget(place.root), realFile).split(sep).join('/');
  if ((await place.store.history(key, { limit: 1 })).length > 0) throw refuse(`${key} is another document`);
}

/** statSync, or undefined for any failure (as existsSync reads one); absent.ts says why through lstat. */
function statOrMissing(path: string): Stats | undefined {
  try {
    return statFollowing(path);
  } catch {
    return undefined;
  }
}

/**
 * Written after the commit, not durable: a mirror is derived, and the next write or the doctor
 * restores it. With a remote store the document's folder may not exist here yet. A mirror that
 * already says what it should is left as it is: most writes change other fields, and the
 * rewrite (a temp file and a rename, under the document's lock) was the costliest step of a
 * commit after its fsyncs.
 */
export function writeMirrors(root: string, mirrors: Mirror[]): void {
  for (const mirror of mirrors) {
    if (mirrorHolds(mirror)) continue;
    if (!existsSync(dirname(mirror.file))) mkdirInside(root, dirname(mirror.file), 'mirror folder');
    writeFileAtomic(mirror.file, mirror.content, { durable: false });
  }
}
