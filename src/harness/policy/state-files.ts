/**
 * baton's own state: the configured documents, their mirrors, the wave file and every `.baton/`
 * folder (locks, metadata, history). They change only through baton, which validates, locks and
 * records each change; a tool or shell write to them is denied in every phase, whatever the
 * allow-list says. Running baton itself (`baton task phase-set`, `eneo-phase-set`) stays allowed.
 */
import { resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../../project/config.js';

export const STATE_RULE = 'baton-state';

export function stateRule(config: HarnessConfig, root: string): RuleConfig {
  const files = [
    ...Object.values(config.documents).flatMap((doc) => [
      doc.path,
      ...Object.values(doc.mirrors ?? {}).map((m) => m.file),
    ]),
    ...(config.wave ? [config.wave.file] : []),
  ];
  const exact = files.map((file) => `re:^${escape(resolve(root, file))}$`);
  return {
    id: STATE_RULE,
    on: 'both',
    paths: [...exact, 're:/\\.baton(/|$)'],
    message: [
      '✗ Blocked: {file} is baton state; it changes only through baton, which validates, locks and records every change.',
      "  Fix:  use baton instead: 'baton task phase-set RED|GREEN|REFACTOR|FREE' (or eneo-phase-set) for the phase,",
      "        'baton task update <jq>' for the task, 'baton set <document> <field> <value>' or 'baton update <document> <jq>' for another document.",
    ],
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
