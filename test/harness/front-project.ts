import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { answerHook } from '../../src/harness/hooks/hook-front.js';
import { tempTree } from '../helpers/fixtures.js';

/**
 * A project tree with `config` as its baton.config.json, and its hooks answered in-process through
 * the hook front (`answerHook`), as `baton hook` and `baton serve` answer them. Its environment
 * keeps the debug log and the temp folder inside the tree, and the sandbox off (no process).
 */
export function frontProject(config: object) {
  const tree = tempTree({ 'baton.config.json': JSON.stringify(config), '.tmp/.keep': '' });
  const env: Record<string, string> = {
    BATON_ROOT: tree.dir,
    BATON_DEBUG_LOG: join(tree.dir, '.debug.log'),
    TMPDIR: join(tree.dir, '.tmp'),
    BATON_SANDBOX: 'off',
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(tree.dir, path)), { recursive: true });
    writeFileSync(join(tree.dir, path), text);
  };
  const read = (path: string) => readFileSync(join(tree.dir, path), 'utf8');
  /** A payload given as a string is the text the face read, as is; anything else is sent as JSON. */
  const hook = (event: string, payload: unknown, options: { host?: string; profile?: string } = {}) =>
    answerHook({
      event,
      host: options.host,
      profile: options.profile,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      cwd: tree.dir,
      env,
      goalHooks: async () => (await import('../../src/goal/hooks/goal-handlers.js')).runGoalHook,
    });
  const log = () => {
    try {
      return readFileSync(env.BATON_DEBUG_LOG as string, 'utf8');
    } catch {
      return '';
    }
  };
  return { dir: tree.dir, env, write, read, hook, log, cleanup: tree.cleanup };
}
