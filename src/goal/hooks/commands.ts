/**
 * Reading Bash commands of a turn: split into segments, find each segment's command
 * word behind assignments and wrappers, and decide whether it ran goal.sh with a verb, or wrote
 * through git or gh. Everything is case-sensitive, as the original's checks are.
 */
const SEPARATORS = /&&|\|\||;|\||\n|\(|\{/;

export function segments(command: string): string[] {
  return command.split(SEPARATORS);
}

/** Leading whitespace and prefix tokens (assignments, shell keywords, wrappers), each + whitespace. */
const PREFIX = String.raw`^\s*(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|do|then|else|if|elif|while|until|time|env|command|exec|nohup|timeout\s+\S+)\s+)*`;

const GOAL_TOOL = new RegExp(
  `${PREFIX}(?:(?:(?:bash|sh)\\s+)?["']?[^\\s"']*goal\\.sh["']?|(?:npx\\s+)?(baton)\\s+goal)\\s+(start|resume|pause|close|list|touch|now|land)\\b`,
);

/** The verb a segment runs goal.sh (or `baton goal`) with, if any. */
export function goalVerb(segment: string): string | undefined {
  return GOAL_TOOL.exec(segment)?.[2];
}

/** How the first segment running one of `verbs` spelled it: `goal.sh resume`, `baton goal start`. */
export function goalInvocation(command: string, verbs: readonly string[]): string | undefined {
  for (const segment of segments(command)) {
    const match = GOAL_TOOL.exec(segment);
    if (match && verbs.includes(match[2] as string)) return `${match[1] ? 'baton goal' : 'goal.sh'} ${match[2]}`;
  }
  return undefined;
}

export function ranGoal(command: string, verbs: readonly string[]): boolean {
  return goalInvocation(command, verbs) !== undefined;
}

const GIT_VERB = String.raw`(?:commit|push|rebase|reset|checkout|switch|merge|cherry-pick|revert|restore|pull|stash|worktree\s+(?:add|remove|move|prune)|(branch))(?=\s|\)|$)`;
const GIT = new RegExp(`${PREFIX}git(?:\\s+(?:-C\\s+\\S+|-c\\s+\\S+|--\\S+))*\\s+${GIT_VERB}`);
const BRANCH_WRITE = /\s(?:-d|-D|-m|-M|-c|-C|-f|--delete|--move|--copy|--force)(?=\s|$)/;

export function isGitWrite(segment: string): boolean {
  const unquoted = segment.replace(/"[^"]*"|'[^']*'/g, "''");
  const match = GIT.exec(unquoted);
  if (!match) return false;
  if (match[1] !== undefined && !BRANCH_WRITE.test(unquoted.slice(match.index + match[0].length))) return false;
  if (/(?:^|\s)--dry-run(?=\s|=|$)/.test(unquoted)) return false;
  if (/\bpush\b.*\s-n(?:\s|$)/.test(unquoted)) return false;
  if (/\bstash\s+(?:list|show)\b/.test(unquoted)) return false;
  return true;
}

const GH = new RegExp(
  `${PREFIX}gh\\s+(?:pr\\s+(?:create|merge|edit|close|reopen|comment|review|ready|checkout)\\b|issue\\s+(?:create|edit|close|reopen|comment|transfer|delete|lock|unlock|pin|unpin)\\b|release\\s+(?:create|edit|delete|upload)\\b|(api)\\b)`,
);
const GH_GRAPHQL = new RegExp(`${PREFIX}gh\\s+api\\s+graphql\\b`);
const METHOD = String.raw`(?:-X\s*|--method(?:\s+|=))`;

export function isGhWrite(segment: string, wholeCommand: string): boolean {
  const match = GH.exec(segment);
  if (!match) return false;
  if (match[1] === undefined) return true;
  if (GH_GRAPHQL.test(segment))
    return /\bmutation\b/.test(wholeCommand) || /(?:-F|--field)(?:\s*|=)query=@/.test(segment);
  if (new RegExp(`${METHOD}(?:GET|get)\\b`).test(segment)) return false;
  return (
    new RegExp(`${METHOD}[A-Za-z]`).test(segment) ||
    /(?:^|\s)(?:-f|-F|--field|--raw-field|--input)(?=\s|=|$)/.test(segment)
  );
}

export function isWriteCommand(command: string): boolean {
  return segments(command).some((segment) => isGitWrite(segment) || isGhWrite(segment, command));
}
