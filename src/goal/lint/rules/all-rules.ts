import type { LintRule } from '../lint-context.js';
import { rule as nowBlank } from './now-blank.js';
import { rule as nowEmpty } from './now-empty.js';
import { rule as nowFinished } from './now-finished.js';
import { rule as pendingButDone } from './pending-but-done.js';
import { rule as decidedEvents } from './decided-events.js';
import { rule as decidedUnattributed } from './decided-unattributed.js';
import { rule as doneOrder } from './done-order.js';
import { rule as size } from './size.js';
import { rule as doneLong } from './done-long.js';
import { rule as headLong } from './head-long.js';
import { rule as markerStale } from './marker-stale.js';
import { rule as sectionStale } from './section-stale.js';

/** All rules in output order (the original lint's, which scripts reading its output rely on). */
export const RULES: readonly LintRule[] = [
  nowBlank,
  nowEmpty,
  nowFinished,
  pendingButDone,
  decidedEvents,
  decidedUnattributed,
  doneOrder,
  size,
  doneLong,
  headLong,
  markerStale,
  sectionStale,
];
