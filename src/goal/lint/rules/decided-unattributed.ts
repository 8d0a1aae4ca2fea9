/**
 * A ruling ends `(<who>, YYYY-MM-DD)`. Any parenthesised group without nesting holding a
 * comma then a 20xx year (or the template's literal `<YYYY-MM-DD>`) counts as attributed.
 */
import type { LintRule } from '../lint-context.js';
import { entries } from '../lint-context.js';

const ATTRIBUTED = /\([^()]*,[ \t]*(?:20\d\d|<YYYY-MM-DD>)[^()]*\)/;

export const rule: LintRule = {
  id: 'decided-unattributed',
  check(ctx) {
    const decided = entries(ctx.section('Decided'));
    const count = decided.filter((line) => !ATTRIBUTED.test(line)).length;
    return count > 0
      ? [
          `${count} ## Decided line(s) lack '(<who>, YYYY-MM-DD)'; a ruling names who made it, anything else is not a ruling`,
        ]
      : [];
  },
};
