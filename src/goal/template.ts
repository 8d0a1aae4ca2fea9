/**
 * The 25-line state.md that `start` writes, byte-identical to the original template.
 * The sentence is inserted as data, never through a substitution language (the original's sed garbled `&`, `\` and `|`): newlines
 * fold to spaces and `&`, `\`, `|` stay as typed.
 */
import { isoSeconds } from '../core/iso-time.js';

export function foldNewlines(text: string): string {
  // Only `\n` is a line break here, every other character is literal; now/land fold the same.
  return text.replaceAll('\n', ' ');
}

export function initialState(sentence: string, now: Date = new Date()): string {
  return [
    `<!-- state: updated=${isoSeconds(now)} status=active -->`,
    `# Goal: ${foldNewlines(sentence)}`,
    '',
    '## Now',
    '- (nothing running)',
    '',
    '## Next',
    '- <the exact next step: a command, an edit, or what you were about to say>',
    '',
    '## Invariants',
    '- <only rules whose breach does damage before you would think to look>',
    '<!-- end head -->',
    '',
    '## Awaiting user',
    '## Queue',
    '## Release gates',
    '## Decided',
    '- <ruling> - <why> (<who>, <YYYY-MM-DD>)',
    '## Open',
    '- (user) <question>',
    '- (me) <question>',
    '## Map',
    '- <repo or system>: <goal>/maps/<area>.md; branch:<name>, <repo>#<n>, worktree <path>',
    '## Done',
    '- <YYYY-MM-DD HH:MMZ> <one line per finished item, with the report pointer>',
    '',
  ].join('\n');
}
