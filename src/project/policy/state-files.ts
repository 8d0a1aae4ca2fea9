/**
 * baton's own state: the configured documents, their mirrors, the wave file, the state folder's
 * `.locks/`, every `.baton/` folder (locks, metadata, history), baton.config.json, the schema files it names and the hosts'
 * settings that install the hooks. They change only through baton, which validates, locks and
 * records each change (the config, schemas and settings only outside the agent session: they are
 * the rules themselves); a tool or shell write to them is denied in every phase and profile,
 * whatever the allow-list says. Running baton itself (`baton task phase-set`, `eneo-phase-set`)
 * stays allowed. One list: the gate, baton's own writes (protect.ts) and the OS sandbox read it.
 */
import { resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../config.js';

export const STATE_RULE = 'baton-state';

/** The work board's document on the embedded store, relative to the project. */
export const BOARD_FILE = '.claude/state/board.json';

/**
 * The agent hosts' project settings, which install baton's hooks and grant permissions: an agent
 * that rewrites them (`"allow": ["Bash(*)"]`, the hooks removed) has switched the gate off.
 */
const HOST_SETTINGS = [
  're:/\\.claude/settings(\\.local)?\\.json$',
  're:/\\.gemini/settings\\.json$',
  're:/\\.codex/(hooks\\.json|config\\.toml)$',
  're:/\\.cursor/hooks\\.json$',
];

/** A schema named by path rather than by a built-in name (the test loadSchema applies). */
export function isSchemaPath(ref: string): boolean {
  return ref.includes('/') || ref.endsWith('.json');
}

/**
 * The rule by config and root: a resident server judges every call with the same config object
 * (kept while its file is unchanged), so the rule, and the compiled patterns keyed by it, are made
 * once per change rather than once per decision.
 */
const stateRules = new WeakMap<HarnessConfig, Map<string, RuleConfig>>();

export function stateRule(config: HarnessConfig, root: string): RuleConfig {
  let byRoot = stateRules.get(config);
  if (!byRoot) stateRules.set(config, (byRoot = new Map<string, RuleConfig>()));
  let rule = byRoot.get(root);
  if (!rule) byRoot.set(root, (rule = makeStateRule(config, root)));
  return rule;
}

function makeStateRule(config: HarnessConfig, root: string): RuleConfig {
  const files = [
    ...Object.values(config.documents).flatMap((doc) => [
      doc.path,
      ...Object.values(doc.mirrors ?? {}).map((m) => m.file),
      ...(doc.schema !== undefined && isSchemaPath(doc.schema) ? [doc.schema] : []),
    ]),
    ...(config.wave ? [config.wave.file] : []),
    // The work board (board/model.ts BOARD_KEY): its claims reserve paths, so an agent that could
    // edit or remove it could lift another agent's reservation.
    BOARD_FILE,
  ];
  const exact = files.map((file) => `re:^${escape(resolve(root, file))}$`);
  // The state folder's locks (`baton task lock`, the one state lock every task write takes): a
  // command that removes or relinks them breaks the serialisation every write relies on.
  const locks = [`re:^${escape(resolve(root, config.stateDir, '.locks'))}(/|$)`];
  return {
    id: STATE_RULE,
    on: 'both',
    // Any baton.config.json: it is the config of a session started in its folder.
    paths: [...exact, ...locks, 're:/\\.baton(/|$)', 're:/baton\\.config\\.json$', ...HOST_SETTINGS],
    message: [
      '✗ Blocked: {file} is baton state or its rules; it changes only through baton, which validates, locks and records every change.',
      "  Fix:  use baton instead: 'baton task phase-set RED|GREEN|REFACTOR|FREE' (or eneo-phase-set) for the phase,",
      "        'baton task update <jq>' for the task, 'baton set <document> <field> <value>' or 'baton update <document> <jq>' for another document;",
      '        baton.config.json and its schema files: edit them outside the agent session.',
    ],
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
