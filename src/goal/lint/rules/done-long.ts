import type { LintRule } from '../lint-context.js';
import { entries } from '../lint-context.js';

/** One Done line per finished item, not per agent return. */
export const rule: LintRule = {
  id: 'done-long',
  check(ctx) {
    const count = entries(ctx.section('Done')).length;
    const max = ctx.thresholds.maxDone;
    return count > max ? [`${count} ## Done entries (> ${max}); one line per finished item, not per agent return`] : [];
  },
};
