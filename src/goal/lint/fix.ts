/**
 * `baton lint --fix`: the codes with a safe mechanical fix. Now's blank lines and a missing
 * placeholder (the Now rewrite of `goal.sh`), Done out of order (stable reorder of the stamped
 * lines among themselves and of the log-timed lines among themselves, nothing else moves), and
 * a stale marker (any fix writes the file, and updated= is set to that moment).
 */
import { isoSeconds } from '../../core/iso-time.js';
import { isBlank, joinLines, sectionLines, setMarkerField } from '../text.js';
import { NOTHING_RUNNING, rewriteNowDone } from '../now-done.js';
import { editState } from '../state-file.js';
import { doneKey, logTimes } from './rules/done-order.js';
import { buildContext, runRules, type LintOptions } from './lint-file.js';

const FIXABLE = new Set(['now-blank', 'now-empty', 'done-order', 'marker-stale']);

export interface Fix {
  code: string;
  change: string;
}

function doneIndices(lines: string[]): number[] {
  const start = lines.findIndex((line) => line === '## Done' || line.startsWith('## Done '));
  const out: number[] = [];
  if (start < 0) return out;
  for (
    let i = start + 1;
    i < lines.length && !(lines[i] as string).startsWith('## ') && lines[i] !== '<!-- end head -->';
    i++
  )
    out.push(i);
  return out;
}

/** Stable sort of each kind of keyed Done line within the slots that kind already occupies. */
function reorderDone(lines: string[], logLines: string[] | undefined): string[] {
  const times = logTimes(logLines);
  const out = [...lines];
  for (const kind of ['stamp', 'log'] as const) {
    const slots = doneIndices(lines).filter((i) => doneKey(lines[i] as string, times)?.kind === kind);
    const sorted = slots
      .map((i, order) => ({ line: lines[i] as string, key: doneKey(lines[i] as string, times)?.value ?? '', order }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.order - b.order));
    slots.forEach((slot, n) => (out[slot] = (sorted[n] as { line: string }).line));
  }
  return out;
}

function fixNow(lines: string[]): string[] {
  if (!lines.includes('## Now')) return lines;
  const fixed = rewriteNowDone(lines, {});
  const now = sectionLines(fixed, 'Now');
  if (now.some((line) => line.startsWith('- '))) return fixed;
  const at = fixed.indexOf('## Now');
  return [...fixed.slice(0, at + 1), NOTHING_RUNNING, ...fixed.slice(at + 1)];
}

export async function fixState(statePath: string, options: LintOptions): Promise<Fix[] | undefined> {
  const before = buildContext(statePath, { ...options, sidecarPath: undefined });
  if (!before) return undefined;
  const found = new Set(runRules(before).map((f) => f.code));
  if (![...found].some((code) => FIXABLE.has(code))) return [];
  const fixes: Fix[] = [];
  await editState(statePath, (lines) => {
    let next = lines;
    if (found.has('now-blank') || found.has('now-empty')) {
      next = fixNow(next);
      const blanks = sectionLines(lines, 'Now').filter(isBlank).length - 1;
      if (found.has('now-blank'))
        fixes.push({ code: 'now-blank', change: `removed ${blanks} blank line(s) inside ## Now` });
      if (found.has('now-empty') && sectionLines(next, 'Now').some((l) => l.startsWith('- '))) {
        fixes.push({ code: 'now-empty', change: `added '${NOTHING_RUNNING}' to ## Now` });
      }
    }
    if (found.has('done-order')) {
      next = reorderDone(next, before.logLines);
      fixes.push({ code: 'done-order', change: 'put the ## Done entries in time order' });
    }
    const stamp = isoSeconds(options.now);
    const marked = setMarkerField(next, 'updated', stamp);
    if (found.has('marker-stale') && marked !== next)
      fixes.push({ code: 'marker-stale', change: `set updated=${stamp}` });
    return joinLines(marked) === joinLines(lines) ? undefined : marked;
  });
  return fixes;
}
