import type { LintRule } from '../lint-context.js';
import { END_HEAD } from '../../text.js';

/** The head is injected capped at 40 lines / 4000 bytes; a longer head is cut short. */
const HEAD_MAX_LINES = 40;
const HEAD_MAX_BYTES = 4000;

export const rule: LintRule = {
  id: 'head-long',
  check(ctx) {
    const end = ctx.lines.indexOf(END_HEAD);
    if (end < 0) return [];
    let bytes = 0;
    for (let i = 0; i < end; i++) bytes += Buffer.byteLength(ctx.lines[i] as string) + 1;
    return end > HEAD_MAX_LINES || bytes > HEAD_MAX_BYTES
      ? [
          `the head is ${end} lines, ${bytes} bytes (cap ${HEAD_MAX_LINES} lines, ${HEAD_MAX_BYTES} bytes); the injected copy is cut short`,
        ]
      : [];
  },
};
