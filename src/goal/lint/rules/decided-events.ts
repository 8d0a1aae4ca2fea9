import type { LintRule } from '../lint-context.js';
import { entries } from '../lint-context.js';

/** Decided holds rulings; merges, reviews and agent returns are events (Done or the log). */
const EVENT = /MERGED|CLOSED|APPROVE|CHANGES|^- Opened |- done \d|\((?:opus|sonnet|haiku|fable)\)[: ]/;

export const rule: LintRule = {
  id: 'decided-events',
  check(ctx) {
    const count = entries(ctx.section('Decided')).filter((line) => EVENT.test(line)).length;
    return count > 0
      ? [`${count} ## Decided line(s) read as events (merges, reviews, agent returns); they belong in Done or the log`]
      : [];
  },
};
