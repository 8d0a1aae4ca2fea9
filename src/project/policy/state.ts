import { resolve } from 'node:path';
import type { Condition, HarnessConfig } from '../config.js';
import { DOCUMENT_FILE_MAX_BYTES, isReadRefusal, SMALL_FILE_MAX_BYTES } from '../../fs/bounded-read.js';
import { readKept } from '../../fs/kept-reads.js';
import { noEntry, unreadable } from '../../fs/absent.js';

const MIRROR_FIX = "baton writes one word there; run 'baton doctor --repair' to rewrite it";
const DOC_FIX = 'baton never writes one that large; move it aside and recreate it';

/** Each configured document by name, fetched from a shared store: its object, or undefined when it does not exist. */
export type SharedDocuments = ReadonlyMap<string, Record<string, unknown> | undefined>;

/**
 * Reads the document fields rules are conditioned on, as cheaply as possible: a field with a
 * mirror file is read from that one-word file (the JSON stays authoritative, the mirror
 * is what gates), any other field from the JSON text with a plain JSON.parse (no schema, no lock).
 */
export class StateReader {
  private readonly docs = new Map<string, Record<string, unknown> | undefined>();

  constructor(
    private readonly config: HarnessConfig,
    private readonly root: string,
    /** Fetched from a shared store: they win over this machine's files, which may be stale. */
    private readonly shared?: SharedDocuments,
  ) {}

  field(condition: Condition): string {
    const name = condition.doc ?? 'task';
    const mirror = this.config.documents[name]?.mirrors?.[condition.field];
    if (mirror) {
      let word = mirror.empty;
      const file = resolve(this.root, mirror.file);
      try {
        word = readKept(file, SMALL_FILE_MAX_BYTES, `mirror ${file}`, MIRROR_FIX, mirrorWord) || mirror.empty;
      } catch (error) {
        // A refused read (huge, a FIFO) is not "missing": the hook fails closed on it.
        if (isReadRefusal(error)) throw error;
        // Only nothing at the path is the empty word. A mirror that cannot be looked at (a link
        // loop, a folder this user may not enter) taken for none would lift the GREEN freeze.
        if (!noEntry(error)) throw unreadable('mirror', file, error);
      }
      return mirror.values && !mirror.values.includes(word) ? mirror.empty : word;
    }
    const value = this.doc(name)?.[condition.field];
    return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  }

  matches(condition: Condition | undefined): boolean {
    return condition === undefined || condition.in.includes(this.field(condition));
  }

  doc(name: string): Record<string, unknown> | undefined {
    if (this.docs.has(name)) return this.docs.get(name);
    if (this.shared?.has(name)) return this.shared.get(name);
    const path = this.config.documents[name]?.path;
    let value: Record<string, unknown> | undefined;
    const file = path ? resolve(this.root, path) : undefined;
    try {
      value = file ? readKept(file, DOCUMENT_FILE_MAX_BYTES, `document ${file}`, DOC_FIX, documentObject) : undefined;
    } catch (error) {
      if (isReadRefusal(error)) throw error;
      // Not JSON reads as absent (fail open, the doctor reports it); a document that cannot be
      // looked at is not absent, as the mirror above.
      if (!(error instanceof SyntaxError) && !noEntry(error)) throw unreadable('document', file as string, error);
    }
    this.docs.set(name, value);
    return value;
  }

  slug(): string {
    const slug = this.doc('task')?.slug;
    return typeof slug === 'string' ? slug : '';
  }
}

// The parsers of kept reads (fs/kept-reads.ts): one function each, so a resident server parses a file once per change.
const mirrorWord = (text: string): string => text.trim();

function documentObject(text: string): Record<string, unknown> | undefined {
  const parsed = JSON.parse(text) as unknown;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}
