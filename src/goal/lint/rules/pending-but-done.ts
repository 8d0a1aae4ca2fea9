/**
 * An issue or PR number still pending in Next, Awaiting user or Queue while Done or Decided
 * records it as merged or closed. The global case-insensitive regex gives exactly the original's
 * longest, non-overlapping left-to-right matches.
 */
import type { LintRule } from '../lint-context.js';

const FINISHED = /#(\d+)[^#]{0,25}(?:merged|closed)|(?:merged|closed)[^#]{0,12}#(\d+)/gi;
const PENDING_SECTIONS = ['Next', 'Awaiting user', 'Queue'];

function finishedNumbers(lines: string[]): Set<string> {
  const found = new Set<string>();
  for (const line of lines) {
    for (const match of line.matchAll(FINISHED)) found.add(`#${match[1] ?? match[2]}`);
  }
  return found;
}

export const rule: LintRule = {
  id: 'pending-but-done',
  check(ctx) {
    const finished = finishedNumbers([...ctx.section('Done'), ...ctx.section('Decided')]);
    if (finished.size === 0) return [];
    const out: string[] = [];
    for (const name of PENDING_SECTIONS) {
      const tokens = new Set<string>();
      for (const line of ctx.section(name)) for (const match of line.matchAll(/#\d+/g)) tokens.add(match[0]);
      const sorted = [...tokens].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const token of sorted) {
        if (finished.has(token))
          out.push(`## ${name} names ${token}, which Done or Decided records as merged or closed`);
      }
    }
    return out;
  },
};
