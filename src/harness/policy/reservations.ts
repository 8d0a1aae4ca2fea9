/**
 * File reservations: while an item of the work board is claimed, the paths it may write are its
 * holder's. Each held item becomes one policy rule for every other agent, so the gate's whole
 * machinery applies to it: edit tools and the shell analysis's write targets, each path checked as
 * given and once symlinks and `..` are resolved, recursive writes of a folder holding a reserved
 * file, and (strict mode) a shell write baton cannot resolve that names a reserved path. The rule
 * ignores the allow-list, like baton's own state: a reservation is not a project's taste in files.
 *
 * Globs are relative to the project and keep the gates' bash `case` semantics (`*` matches `/`).
 * They are compared without regard to case: on macOS and Windows `SRC/Api.ts` is `src/api.ts`,
 * and a path that differs only in case on Linux is denied too rather than allowed on a guess.
 */
import { realpathSync } from 'node:fs';
import type { RuleConfig } from '../../project/config.js';
import { STATE_RULE } from '../../project/policy/state-files.js';
import type { WorkBoard } from '../../board/model.js';
import { liveClaim } from '../../board/model.js';

export const RESERVED_RULE = 'board-reserved';

/** baton's own state and the board's reservations hold whatever the project's allow-list says. */
export function ignoresAllowList(rule: RuleConfig): boolean {
  return rule.id === STATE_RULE || rule.id === RESERVED_RULE;
}

export interface Caller {
  /** The caller's board name (board-identity.ts boardName). */
  agent: string;
  /** The host session ('' when the host gave none). */
  session: string;
}

/** One rule per item another agent holds now, its paths reserved to that agent. */
export function reservationRules(board: WorkBoard, caller: Caller, root: string, now: Date): RuleConfig[] {
  const roots = projectRoots(root);
  const rules: RuleConfig[] = [];
  for (const [id, item] of Object.entries(board.items)) {
    const claim = liveClaim(item, now);
    if (!claim || item.paths.length === 0) continue;
    // A claim made in another session is another agent's, whatever its name.
    const own = claim.agent === caller.agent && (claim.session === undefined || claim.session === caller.session);
    if (own) continue;
    rules.push({
      id: RESERVED_RULE,
      on: 'both',
      paths: item.paths.flatMap((glob) => roots.map((at) => `re:^${foldCase(escapeRe(at))}/${globSource(glob)}$`)),
      message: [
        `✗ Blocked: {file} is reserved to work-board item ${id} (${JSON.stringify(item.title)}), held by ${claim.agent} until ${claim.expires}.`,
        `  Fix:  leave ${item.paths.join(' ')} to ${claim.agent}; take an item of your own ('baton work ready', 'baton work claim'),`,
        `        or wait until ${id} is done ('baton work wait ${id} --all --timeout SECONDS').`,
      ],
    });
  }
  return rules;
}

/**
 * The rule a board that cannot be read stands for: it may reserve any path of the project, so
 * every write in the project is denied (a gated event fails closed), naming the problem and the fix.
 */
export function unreadableBoardRule(root: string, problem: string): RuleConfig {
  return {
    id: RESERVED_RULE,
    on: 'both',
    paths: projectRoots(root).map((at) => `re:^${foldCase(escapeRe(at))}/`),
    message: [
      `✗ Blocked: the work board could not be read (${problem}), so baton cannot tell whether {file} is reserved to another agent.`,
      "  Fix:  'baton work show' names the problem; 'baton revert .claude/state/board.json' restores an earlier revision, 'baton doctor' checks the store.",
    ],
  };
}

/** The project root as given and as it really is: a candidate path is checked in both forms. */
function projectRoots(root: string): string[] {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A root that cannot be resolved is checked as given.
  }
  return real === root ? [root] : [root, real];
}

/** A project-relative glob as a regular expression's source (bash `case` semantics, any case). */
function globSource(glob: string): string {
  const relative = glob.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  let source = '';
  for (let i = 0; i < relative.length; i++) {
    const c = relative[i] as string;
    if (c === '*') {
      while (relative[i + 1] === '*') i++;
      source += '.*';
    } else if (c === '?') source += '.';
    else if (c === '[' && relative.indexOf(']', i + 2) > 0) {
      const end = relative.indexOf(']', i + 2);
      const body = relative.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      const members = (negated ? body.slice(1) : body).replaceAll('\\', '\\\\');
      source += `[${negated ? '^' : ''}${members}${bothCases(members)}]`;
      i = end;
    } else source += foldCase(escapeRe(c));
  }
  return source;
}

/** Each letter of an already escaped literal as a set of both its cases. */
function foldCase(source: string): string {
  return source.replace(/[A-Za-z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/** The other case of a bracket set's letters (ranges of letters included). */
function bothCases(members: string): string {
  return members.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
