/**
 * Where a run's document lives: `<root>/.ai_log/session-<label>.json`. The label goes
 * into a file name, so it is checked before anything touches the disk: the original put it into
 * the path unchecked, and `../x` or `a/b` wrote wherever they pointed.
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import { defaultRoot } from '../project/root.js';
import { isInside } from '../fs/confine.js';

export const RUN_DIR = '.ai_log';
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** File names stop at 255 bytes; `session-<label>.json` plus the engine's sidecar suffixes must fit. */
const MAX_LABEL = 200;

export interface RunLocation {
  label: string;
  root: string;
  /** Absolute path of the run document. */
  file: string;
  /** The document key relative to the root, as the store wants it. */
  key: string;
}

function checkLabel(label: string, what = 'session id'): string {
  if (!LABEL.test(label) || label.includes('..')) {
    throw new BatonError(
      'usage',
      `invalid ${what} ${JSON.stringify(label)}: use letters, digits, '.', '_' and '-' (starting with a letter or digit, no '..', no '/', no control characters)`,
    );
  }
  if (label.length > MAX_LABEL)
    throw new BatonError(
      'usage',
      `invalid ${what}: ${label.length} characters, at most ${MAX_LABEL} characters fit in a file name; use a shorter slug`,
    );
  return label;
}

/**
 * A run given as a label (with an optional `--name` suffix) or as the state file path an agent was
 * handed (`.ai_log/session-x.json`): an argument ending in `.json` that contains `/`.
 */
export function locateRun(
  ref: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; name?: string | undefined },
): RunLocation {
  const root = defaultRoot(options.cwd, options.env);
  const dir = join(root, RUN_DIR);
  if (ref.endsWith('.json') && ref.includes('/')) return fromPath(ref, root, dir, options);
  const label = checkLabel(ref) + (options.name === undefined ? '' : `-${checkLabel(options.name, 'run name')}`);
  checkLabel(label);
  const file = join(dir, `session-${label}.json`);
  return { label, root, file, key: relative(root, file) };
}

function fromPath(
  ref: string,
  root: string,
  dir: string,
  options: { cwd: string; name?: string | undefined },
): RunLocation {
  if (options.name !== undefined)
    throw new BatonError('usage', `--name cannot be combined with a state file path (${ref}); pass the label instead`);
  if (/[\u0000-\u001f\u007f]/.test(ref))
    throw new BatonError(
      'usage',
      `state file path ${JSON.stringify(ref)} has control characters; pass the path you were handed`,
    );
  // The orchestrator hands `state_file = .ai_log/session-<label>.json`, relative to the root; an
  // agent working in a subfolder passes it as received, so a relative path that does not land in
  // .ai_log/ from the working directory is tried from the root too.
  const inRunDir = (path: string) => dirname(path) === dir && basename(path).startsWith('session-');
  const fromCwd = isAbsolute(ref) ? resolve(ref) : resolve(options.cwd, ref);
  const file = inRunDir(fromCwd) || isAbsolute(ref) ? fromCwd : resolve(root, ref);
  const name = basename(file);
  if (!isInside(dir, file) || !inRunDir(file)) {
    throw new BatonError(
      'usage',
      `state file ${ref} is not a session-<label>.json file directly in ${dir}; pass the label or the path init printed`,
    );
  }
  const label = checkLabel(name.slice('session-'.length, -'.json'.length));
  return { label, root, file, key: relative(root, file) };
}
