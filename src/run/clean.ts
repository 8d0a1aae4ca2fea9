/**
 * `baton run clean`: the explicit replacement for the original init's wipe of
 * `.ai_log/`. Evidence files carry no run label, so they cannot be told apart by run; the guard is
 * therefore "no other run touched its state in the last 24 h", and `--older-than` narrows the
 * removal to entries old enough not to belong to a live run.
 *
 * Always kept: `.gitkeep`, every `session-*.json` (a run's bus is cleared with `run clear`, never
 * swept), the engine's `.baton/` folder (history and the locks live writers hold) and the temp
 * files of writes in flight (removing one would fail that write's rename).
 */
import { lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../core/errors.js';
import { TEMP_FILE_PATTERN } from '../fs/atomic.js';
import { confine } from '../fs/confine.js';
import { isStoreFile } from '../stores/index.js';
import { RUN_DIR } from './location.js';

const ACTIVE_MS = 24 * 3600_000;
const STATE_FILE = /^session-(.+)\.json$/;

export interface CleanOptions {
  root: string;
  /** The caller's own run label: its state file does not count as another active run. */
  own?: string | undefined;
  olderThanMs?: number | undefined;
  force: boolean;
  now?: number;
}

export function cleanRuns(options: CleanOptions): string {
  // A symlinked .ai_log that leads out of the project is refused before anything is listed:
  // removing "its" entries would delete files elsewhere.
  const dir = confine(options.root, join(options.root, RUN_DIR), 'the run folder');
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    names = [];
  }
  if (!options.force && options.olderThanMs === undefined) {
    for (const name of names) {
      const label = STATE_FILE.exec(name)?.[1];
      if (label !== undefined && label !== options.own && now - statSync(join(dir, name)).mtimeMs < ACTIVE_MS) {
        throw new BatonError('exists', `another run (${label}) is active; use --older-than or --force`);
      }
    }
  }
  let removed = 0;
  for (const name of names.filter((entry) => !kept(entry))) {
    const path = join(dir, name);
    if (options.olderThanMs !== undefined && now - lstatSync(path).mtimeMs <= options.olderThanMs) continue;
    // rmSync removes a symlink itself, never what it points at.
    rmSync(path, { recursive: true, force: true });
    removed++;
  }
  return `pipeline-state: removed ${removed} entries from ${dir}\n`;
}

function kept(name: string): boolean {
  if (name === '.gitkeep' || isStoreFile(name) || STATE_FILE.test(name)) return true;
  const temp = TEMP_FILE_PATTERN.exec(name)?.[1];
  return temp !== undefined && STATE_FILE.test(temp);
}

/** `90s`, `30m`, `24h`, `7d` -> milliseconds; anything else is a usage error. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text);
  if (!match)
    throw new BatonError(
      'usage',
      `--older-than ${JSON.stringify(text)} is not a duration; use a number with s, m, h or d (e.g. 24h, 7d)`,
    );
  const unit = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
