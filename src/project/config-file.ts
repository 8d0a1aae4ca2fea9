/**
 * Reads `baton.config.json` at the project root without validating it: the dispatcher needs only
 * the profile name and which sections exist to decide whether an event is handled at all.
 * Not stores/file's readDocument, which reads alike: importing it would pull the whole file store
 * into the hook front, which every event pays for, handled or not.
 */
import { isBatonError, systemFix, type Issue } from '../core/errors.js';
import { CONFIG_FILE_MAX_BYTES } from '../fs/bounded-read.js';
import { readKept } from '../fs/kept-reads.js';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';

export const CONFIG_FILE = 'baton.config.json';

/**
 * The one-line refusal for a config with problems: the file, the first problem, the fix. Here, not
 * beside the config's validator, so the mirror checks that report it do not load the validator.
 */
export function configRefusal(file: string, issues: Issue[]): string {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem(s); baton doctor lists them)` : '';
  return `${file} ${first?.path}: ${first?.message}${more}; fix the file`;
}

export type RawConfig =
  { state: 'missing' } | { state: 'ok'; value: Record<string, unknown> } | { state: 'invalid'; error: string };

export function readConfigFile(root: string): RawConfig {
  const file = join(root, CONFIG_FILE);
  // The common case, no config: told by one stat that throws nothing. The read's failed open
  // throws an exception that captures its stack, and baton serve reads the config twice per CLI
  // command it runs (the store check, then the command): that was about an eighth of a forwarded
  // `get`'s CPU. Not existsSync: it says false for a folder this user may not enter (EACCES), which
  // the read reports as a config that cannot be read, and so fails closed. A file made after the
  // stat is seen by the next command, as one made after the read would be. lstat, not stat: a
  // link is followed by the read (a dangling one is ENOENT there, missing as stat said), and
  // lstatSync is compiled already by every command's path checks, statSync only for this.
  let present = true;
  try {
    present = lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    // The read below says why.
  }
  if (!present) return { state: 'missing' };
  try {
    const read = readKept(
      file,
      CONFIG_FILE_MAX_BYTES,
      file,
      'a configuration is a few lines of JSON: fix the file',
      parsed,
    );
    return read.state === 'invalid' ? { state: 'invalid', error: `${file} ${read.error}` } : read;
  } catch (error) {
    if (isBatonError(error)) return { state: 'invalid', error: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    // Not "no config": a config that exists but cannot be read (a link to itself, a mode this user
    // may not read) is invalid, and a gated event fails closed on it.
    return {
      state: 'invalid',
      error: `${file} cannot be read (${systemFix(error) ?? (error as Error).message}); no rule can be checked until it is fixed`,
    };
  }
}

/** The file's text as a config (an error lacks the file's name, which the caller puts first). */
function parsed(text: string): RawConfig {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { state: 'ok', value: value as Record<string, unknown> };
    return { state: 'invalid', error: 'must hold a JSON object like {"profile": "eneo"}' };
  } catch (error) {
    return { state: 'invalid', error: `is not valid JSON (${(error as Error).message}); fix the file` };
  }
}
