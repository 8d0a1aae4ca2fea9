import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { CompiledSchema } from '../core/schema/index.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { mkdirInside, resolveKey } from '../fs/confine.js';

export interface Mirror {
  /** Absolute path, checked to stay inside the document's folder. */
  file: string;
  content: string;
}

/** Mirror contents after a commit: the field's text, or the mirror's `empty` word when unset. */
function mirrorFiles(schema: CompiledSchema, doc: JsonObject | null): { file: string; content: string }[] {
  return schema.rules.mirrors.map((mirror) => ({
    file: mirror.file,
    content: `${mirrorText(doc?.[mirror.field], mirror.empty)}\n`,
  }));
}

export function mirrorText(value: unknown, empty: string): string {
  if (value === undefined || value === null || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The mirror files of the document `key` under `root`, on this machine whatever the store. Checked
 * before the commit: a mirror that cannot be written (a folder in its place, a symlink out of the
 * folder) refuses the whole write instead of failing after it.
 */
export function mirrorTargets(root: string, key: string, schema: CompiledSchema, doc: JsonObject | null): Mirror[] {
  if (schema.rules.mirrors.length === 0) return [];
  const folder = dirname(resolve(root, key));
  return mirrorFiles(schema, doc).map((mirror) => {
    const target = join(folder, mirror.file);
    if (existsSync(target) && !statSync(target).isFile()) {
      throw new BatonError(
        'unsafe_path',
        `mirror file ${target} is not a regular file (a folder?); remove or move it, nothing was written`,
      );
    }
    return { file: resolveKey(folder, mirror.file), content: mirror.content };
  });
}

/**
 * Written after the commit, not durable: a mirror is derived, and the next write or the doctor
 * restores it. With a remote store the document's folder may not exist here yet.
 */
export function writeMirrors(root: string, mirrors: Mirror[]): void {
  for (const mirror of mirrors) {
    if (!existsSync(dirname(mirror.file))) mkdirInside(root, dirname(mirror.file), 'mirror folder');
    writeFileAtomic(mirror.file, mirror.content, { durable: false });
  }
}

/** Whether the mirror file already says what it should. */
export function mirrorHolds(mirror: Mirror): boolean {
  try {
    return readFileSync(mirror.file, 'utf8') === mirror.content;
  } catch {
    return false;
  }
}
