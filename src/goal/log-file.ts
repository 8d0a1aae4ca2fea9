/**
 * log.md: append-only outliner. One entry = a top bullet with the ISO time, further lines
 * as child bullets. Written with one append call so concurrent writers do not interleave lines.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isoSeconds } from '../core/iso-time.js';
import { appendNoFollow } from '../fs/confine.js';
import { compactStamp } from './goal-time.js';

function formatLogEntry(text: string, now: Date = new Date()): string {
  const lines = text.split('\n').filter((line) => line !== '');
  if (lines.length === 0) return '';
  const [first, ...rest] = lines;
  const children = rest.map((line) => `  - ${line.startsWith('- ') ? line.slice(2) : line}\n`);
  return `- ${isoSeconds(now)} ${first}\n${children.join('')}`;
}

export function appendLog(logFile: string, text: string, now?: Date): void {
  const entry = formatLogEntry(text, now);
  if (entry) appendNoFollow(logFile, entry);
}

/**
 * Rotation: a log strictly larger than the threshold moves, unchanged, to
 * `archive/log.<stamp>.md` and a fresh log points at it. If that name is taken (two rotations in
 * one second) the rotation is skipped this time rather than overwrite or point at the wrong file
 * (the original moved nothing but still logged the rotation). Callers hold the state lock.
 */
export function rotateLog(goalDir: string, maxBytes: number, now: Date = new Date()): boolean {
  const log = join(goalDir, 'log.md');
  let size: number;
  try {
    size = statSync(log).size;
  } catch {
    return false;
  }
  if (size <= maxBytes) return false;
  const archive = join(goalDir, 'archive');
  const name = `log.${compactStamp(now)}.md`;
  mkdirSync(archive, { recursive: true });
  if (existsSync(join(archive, name))) return false;
  renameSync(log, join(archive, name));
  // Appended, not replaced: an agent's `>> log.md` landing between the move and this write
  // (agents append without the lock) creates a new log.md, and that line must survive.
  appendLog(log, `rotated: earlier entries are in archive/${name}`, now);
  return true;
}
