import type { LintRule } from '../lint-context.js';
import { isBlank } from '../../text.js';

/** One blank line (the separator before the next heading) is allowed in Now, no more. */
export const rule: LintRule = {
  id: 'now-blank',
  check(ctx) {
    const blank = ctx.section('Now').filter(isBlank).length;
    return blank > 1 ? [`${blank - 1} blank line(s) inside ## Now; one entry per line, none blank`] : [];
  },
};
