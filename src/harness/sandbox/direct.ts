/**
 * baton's own commands in a protected phase. Inside the sandbox baton's state is read-only, so
 * `baton task phase-set RED` (the documented way out of GREEN) could not write it. A command that
 * is exactly one call of baton (or of an Eneo helper shipped with it), every word literal (WORD), runs
 * unwrapped instead, and through the absolute path of the running installation, which the sandbox
 * holds read-only: a `baton` planted earlier on PATH is not what runs. baton applies the gates to
 * its own writes. Subcommands that run other programs or serve (hook, mcp, ui, demo), import
 * arbitrary files (store) or write host settings (install) stay sandboxed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const DIRECT = new Set([
  'init',
  'get',
  'update',
  'set',
  'append',
  'consume',
  'clear',
  'history',
  'show',
  'revert',
  'doctor',
  'goal',
  'lint',
  'run',
  'phase',
  'gate',
  'task',
  'statusline',
  // The work board: its claims are sealed to baton work, which the sandbox would make read-only.
  'work',
  '--version',
  'help',
]);
const ENEO = new Set(['eneo-phase-set', 'eneo-task-init', 'eneo-task-update']);
/**
 * A word with nothing to expand: plain characters, single quotes, double quotes without `$`,
 * backquote or `!`, in which a `\` only escapes `"` or `\`. bash reads those two escapes as the
 * character escaped, so a double-quoted word spells a literal as a single-quoted one would
 * (`".status = \"verified\""`); any other `\` (`\$`, `\` before a newline) leaves the call sandboxed.
 */
const WORD = `(?:[A-Za-z0-9_./:=@%+,^-]|'[^']*'|"(?:[^"$\`\\\\!]|\\\\["\\\\])*")+`;
const CALL = new RegExp(`^[ \\t]*([a-z-]+)((?:[ \\t]+${WORD})*)[ \\t]*$`);

/** The command to run instead, or undefined when `command` is not a plain call of baton. */
export function directBaton(command: string, node: string, packageDir: string | undefined): string | undefined {
  const call = CALL.exec(command);
  if (!call || !packageDir) return undefined;
  const [, program, rest = ''] = call;
  const cli = join(packageDir, 'dist', 'cli.js');
  if (!existsSync(cli)) return undefined;
  if (program === 'baton') {
    const sub = /^[ \t]+([^ \t]+)/.exec(rest)?.[1];
    return sub !== undefined && DIRECT.has(sub) ? `${quote(node)} ${quote(cli)}${rest}` : undefined;
  }
  const helper = join(packageDir, 'compat', 'eneo', 'bin', program as string);
  if (!ENEO.has(program as string) || !existsSync(helper)) return undefined;
  return `BATON_BIN=${quote(`${node} ${cli}`)} /bin/bash ${quote(helper)}${rest}`;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
