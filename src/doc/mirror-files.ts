/**
 * What a document's mirror files should say, and whether they say it: the part of mirrors a read
 * needs. The checks of where a mirror may be written, and the write, are mirrors.ts, which the CLI
 * loads only when a mirror is written (a write, or a read that finds one out of date).
 */
import { dirname, join, resolve } from 'node:path';
import type { JsonObject } from '../core/json.js';
import type { BatonRules } from '../core/schema/rules.js';
import { readFileBounded } from '../fs/bounded-read.js';

export interface Mirror {
  /** Absolute path, checked to stay inside the document's folder. */
  file: string;
  content: string;
}

/** Mirror contents after a commit: the field's text, or the mirror's `empty` word when unset. */
export function mirrorFiles(rules: BatonRules, doc: JsonObject | null): { file: string; content: string }[] {
  return rules.mirrors.map((mirror) => ({
    file: mirror.file,
    content: `${mirrorText(doc?.[mirror.field], mirror.empty)}\n`,
  }));
}

function mirrorText(value: unknown, empty: string): string {
  if (value === undefined || value === null || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether the mirror file already says what it should. */
export function mirrorHolds(mirror: Mirror): boolean {
  try {
    // A file longer than the content cannot hold it: read no more than that (a FIFO or device not
    // at all). Three bytes a UTF-16 unit bound its UTF-8 length without Buffer.byteLength, a Node
    // function every write of a document with a mirror would compile for this alone.
    const bound = mirror.content.length * 3;
    return readFileBounded(mirror.file, bound, `mirror ${mirror.file}`, 'rewrite it') === mirror.content;
  } catch {
    return false;
  }
}

/**
 * Whether every mirror of the document `key` under `root` already says what `doc` gives it. Only
 * read, and only compared: where a mirror may be written is checked before one is (mirrorTargets).
 */
export function mirrorsHold(root: string, key: string, rules: BatonRules, doc: JsonObject | null): boolean {
  const folder = dirname(resolve(root, key));
  return mirrorFiles(rules, doc).every((mirror) =>
    mirrorHolds({ file: join(folder, mirror.file), content: mirror.content }),
  );
}
