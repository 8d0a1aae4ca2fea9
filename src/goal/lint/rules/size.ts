import type { LintRule } from '../lint-context.js';

/** The file is measured in bytes; a long file costs every session that reads it. */
export const rule: LintRule = {
  id: 'size',
  check(ctx) {
    const max = ctx.thresholds.maxBytes;
    return ctx.size > max
      ? [`${ctx.size} bytes (> ${max}); collapse each finished item to one Done line and move the detail to the log`]
      : [];
  },
};
