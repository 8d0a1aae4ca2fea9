/**
 * `baton hook <Event> [--profile NAME] [--host claude|codex|gemini|cursor]`: reads one payload,
 * answers in the host's protocol (harness/hooks/hook-front.ts decides, as it does for `baton serve`).
 * Reading stdin is this face's part: harness/stdin.ts, bounded in size and time.
 */
import { answerHook, nothingHandled } from '../../harness/hooks/hook-front.js';
import { draftRun } from '../bundle-loader.js';
import { readPayload } from '../../harness/hooks/stdin.js';
import type { CommandIo } from '../../core/command-io.js';
import { parseLoose } from '../args.js';
import { hookDefinition } from '../definitions.js';
import { isAbsolute } from 'node:path';

export default async function hook(args: string[], cli: CommandIo): Promise<number> {
  // Loose, as a hook command has always been read: a word it does not know is skipped, not refused.
  const { positionals, flags } = parseLoose(hookDefinition(), args);
  const event = positionals.find((arg) => !arg.startsWith('-'));
  const payload = await readPayload();
  const rendered = await answerHook({
    event: event ?? '',
    host: flags.host,
    profile: flags.profile,
    payload,
    cwd: hookCwd(cli),
    env: cli.env,
    script: cli.script,
    goalHooks: async () => (await import('../../goal/hooks/goal-handlers.js')).runGoalHook,
  });
  // A first run after an install is often such a one (SessionStart in a project without baton, an
  // event the profile ignores): its code cache would hold only the front (bundle-loader.ts).
  if (nothingHandled(rendered)) draftRun();
  if (rendered.stdout) cli.out(rendered.stdout);
  if (rendered.stderr) cli.err(rendered.stderr);
  return rendered.code;
}

/**
 * The working folder, or, when it was removed under the hook (an agent removed the worktree it
 * worked in), the project folder the host names, from which the hook decides as it would from
 * there. Refused, the hook exits 8, which a host does not count as a denial: a tool call would go
 * ahead unjudged.
 */
function hookCwd(cli: CommandIo): string {
  try {
    return cli.cwd;
  } catch (error) {
    const named = cli.env.BATON_ROOT || cli.env.CLAUDE_PROJECT_DIR;
    if (named && isAbsolute(named)) return named;
    throw error;
  }
}
