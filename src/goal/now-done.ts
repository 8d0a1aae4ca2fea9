/**
 * The Now/Done rewrite shared by `now`, `land` and `lint --fix`. Edits only the first
 * `## Now` and the first Done section, the ones the lint reads; everything else is copied unchanged.
 */
import { END_HEAD, isBlank } from './text.js';

export const NOTHING_RUNNING = '- (nothing running)';

export interface NowDoneEdit {
  /** Line to add at the end of Now (`now`). */
  addEntry?: string;
  /** Drop Now lines naming this label (`land`); `-` drops nothing, not even an entry named `-`. */
  dropLabel?: string;
  /** Line to append after the last non-blank line of Done. */
  doneLine?: string;
}

/** The naming rule of 3.8: ` -> L -> ` anywhere, or `- L` then end, space or `:`. */
function namesLabel(line: string, label: string): boolean {
  if (label === '-' || label === '') return false;
  if (line.includes(` -> ${label} -> `)) return true;
  if (!line.startsWith(`- ${label}`)) return false;
  const next = line.charAt(2 + label.length);
  return next === '' || next === ' ' || next === ':';
}

function isHeading(line: string): boolean {
  return line.startsWith('## ') || line === END_HEAD;
}

function isDoneHeading(line: string): boolean {
  return line === '## Done' || line.startsWith('## Done ');
}

export function hasNowHeading(lines: string[]): boolean {
  return lines.includes('## Now');
}

export function rewriteNowDone(lines: string[], edit: NowDoneEdit): string[] {
  const out: string[] = [];
  let mode: 'copy' | 'now' | 'done' = 'copy';
  let nowSeen = false;
  let doneSeen = false;
  let kept: string[] = [];
  let held: string[] = [];
  const flush = (): void => {
    if (mode === 'now') {
      const entries = edit.addEntry === undefined ? kept : [...kept, edit.addEntry];
      out.push(...(entries.length > 0 ? entries : [NOTHING_RUNNING]), '');
    } else if (mode === 'done') {
      if (edit.doneLine !== undefined) out.push(edit.doneLine);
      out.push(...held);
    }
    mode = 'copy';
  };
  for (const line of lines) {
    if (mode !== 'copy' && isHeading(line)) flush();
    if (mode === 'now') {
      const drop =
        isBlank(line) || line === NOTHING_RUNNING || (edit.dropLabel !== undefined && namesLabel(line, edit.dropLabel));
      if (!drop) kept.push(line);
      continue;
    }
    if (mode === 'done') {
      if (isBlank(line)) held.push(line);
      else out.push(...held.splice(0), line);
      continue;
    }
    out.push(line);
    if (!nowSeen && line === '## Now') {
      nowSeen = true;
      mode = 'now';
      kept = [];
    } else if (!doneSeen && isDoneHeading(line)) {
      doneSeen = true;
      mode = 'done';
      held = [];
    }
  }
  flush();
  if (!doneSeen && edit.doneLine !== undefined) out.push('## Done', edit.doneLine);
  return out;
}

/** Entries of Now for land's note: `- ` lines other than the placeholder. */
export function countNowEntries(lines: string[]): number {
  const start = lines.indexOf('## Now');
  if (start < 0) return 0;
  let count = 0;
  for (let i = start + 1; i < lines.length && !(lines[i] as string).startsWith('## '); i++) {
    const line = lines[i] as string;
    if (line.startsWith('- ') && line !== NOTHING_RUNNING) count++;
  }
  return count;
}

/** The printed Now block: `## Now` through the first following empty line, inclusive. */
export function nowBlock(lines: string[]): string[] {
  const start = lines.indexOf('## Now');
  if (start < 0) return [];
  const end = lines.indexOf('', start + 1);
  return lines.slice(start, end < 0 ? lines.length : end + 1);
}
