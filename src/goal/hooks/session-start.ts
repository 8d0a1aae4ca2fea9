import type { Cli } from '../../cli/context.js';
import { envNumber, toolNames } from '../paths.js';
import { writePointer } from '../pointer.js';
import { rotateLog } from '../log-file.js';
import { underStateLock } from '../state-file.js';
import { contextBlock } from './context-block.js';
import type { HookInput } from './input.js';
import type { Scope } from './scope.js';

/**
 * SessionStart (5.4): the owner gets the goal's context; a session started by /clear takes over
 * a goal its predecessor handed off (`session=cleared:<id>`). Everyone else: silence.
 */
export const MODE_LINE = 'Orchestrate mode is active: load the /orchestrate skill with "resume" before anything else.';

export async function sessionStart(scope: Scope, input: HookInput, cli: Cli): Promise<void> {
  if (!scope.owner) {
    const handOff = input.source === 'clear' && input.sessionId !== '' && scope.pointer.session.startsWith('cleared:');
    if (!handOff) return;
    writePointer(scope.root, { ...scope.pointer, session: input.sessionId });
  }
  await underStateLock(scope.paths.state, () => rotateLog(scope.paths.dir, envNumber(cli.env, 'STATE_LOG_ROTATE_BYTES', 65536)));
  const source = input.source === '' ? 'unknown' : input.source;
  const block = contextBlock(scope, {
    who: `the SessionStart hook; source=${source}`,
    mode: MODE_LINE,
    withHead: input.source !== 'resume',
    transcriptPath: input.transcriptPath,
    env: cli.env,
    names: toolNames(cli.env),
  });
  const output = {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: block, sessionTitle: `orchestrate: ${scope.pointer.slug}` },
  };
  cli.out(`${JSON.stringify(output)}\n`);
}
