/** The goal files' UTC formats beside isoSeconds (core/iso-time.ts), and their clock, injectable for tests. */
import { isoSeconds } from '../core/iso-time.js';
import { readFileBounded, SMALL_FILE_MAX_BYTES } from '../fs/bounded-read.js';

/** `YYYY-MM-DD HH:MMZ`, the stamp of a Done line. */
export function doneStamp(date: Date = new Date()): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}

/** `YYYYMMDDTHHMMSSZ`, used in rotated log names and colliding archive folders. */
export function compactStamp(date: Date = new Date()): string {
  return isoSeconds(date).replace(/[-:]/g, '');
}

/** `HH:MM:SSZ` of an epoch second. */
export function clockTime(epochSeconds: number): string {
  return isoSeconds(new Date(epochSeconds * 1000)).slice(11);
}

/** File times compare in whole seconds, as the stamps they are compared with. */
export function wholeSeconds(mtimeMs: number): number {
  return Math.floor(mtimeMs / 1000);
}

/**
 * The clock of the goal commands: the system's, or the ISO time held in the file BATON_CLOCK_FILE
 * names, read at every tick. A file rather than a fixed time so a test can move the clock while
 * processes wait for a lock, as the minute turns over in real use.
 */
export function clockOf(env: Record<string, string | undefined>): () => Date {
  const file = env.BATON_CLOCK_FILE;
  if (!file) return () => new Date();
  return () => {
    const date = new Date(
      readFileBounded(file, SMALL_FILE_MAX_BYTES, `BATON_CLOCK_FILE ${file}`, 'write one ISO time there').trim(),
    );
    if (Number.isNaN(date.getTime())) throw new Error(`BATON_CLOCK_FILE ${file} does not hold an ISO time`);
    return date;
  };
}
