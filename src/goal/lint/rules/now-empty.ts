import type { LintRule } from '../lint-context.js';
import { entries } from '../lint-context.js';

/** Now always holds an entry; when nothing runs, the placeholder. */
export const rule: LintRule = {
  id: 'now-empty',
  check(ctx) {
    return entries(ctx.section('Now')).length === 0
      ? ["## Now has no entry; when nothing runs it holds '- (nothing running)'"]
      : [];
  },
};
