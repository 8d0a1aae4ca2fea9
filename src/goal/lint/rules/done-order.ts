/**
 * Done is appended in time order. Stamped lines compare their stamps; unstamped lines are
 * placed by their label's first time in the log. The two orders are checked independently.
 */
import type { LintContext, LintRule } from '../lint-context.js';
import { DONE_STAMP } from '../../text.js';

const LOG_LABEL_LINE = /^- \d{4}-\d{2}-\d{2}T[0-9:]+Z? [a-z0-9-]+:/;

export function logTimes(logLines: string[] | undefined): Map<string, string> {
  const times = new Map<string, string>();
  for (const line of logLines ?? []) {
    if (!LOG_LABEL_LINE.test(line)) continue;
    const fields = line.split(/\s+/);
    const time = fields[1] ?? '';
    const label = (fields[2] ?? '').replace(/:$/, '');
    if (!times.has(label)) times.set(label, time);
  }
  return times;
}

/** The sort key of a Done line: `stamp` or `log` with its time, or none. */
export function doneKey(
  line: string,
  times: Map<string, string>,
): { kind: 'stamp' | 'log'; value: string } | undefined {
  const stamp = DONE_STAMP.exec(line);
  if (stamp) return { kind: 'stamp', value: stamp[1] as string };
  if (!line.startsWith('- ')) return undefined;
  const word = line.trim().split(/\s+/)[1];
  const time = word === undefined ? undefined : times.get(word);
  return time === undefined ? undefined : { kind: 'log', value: time };
}

function countInversions(ctx: LintContext): number {
  const times = logTimes(ctx.logLines);
  const previous: Record<'stamp' | 'log', string | undefined> = { stamp: undefined, log: undefined };
  let count = 0;
  for (const line of ctx.section('Done')) {
    const key = doneKey(line, times);
    if (!key) continue;
    const before = previous[key.kind];
    if (before !== undefined && key.value < before) count++;
    previous[key.kind] = key.value;
  }
  return count;
}

export const rule: LintRule = {
  id: 'done-order',
  check(ctx) {
    const count = countInversions(ctx);
    return count > 0 ? [`${count} ## Done entr(y/ies) sit above an older one; append each at the end of Done`] : [];
  },
};
