import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `.gitignore` of `*` in a `.baton/` folder (as pytest and mypy do for their caches): history,
 * locks, keys and markers are this machine's state, never something to commit. 'wx' never writes
 * through a link planted at the name, and leaves an ignore file already there as it is.
 */
export function ignoreLocalState(dir: string): void {
  try {
    writeFileSync(join(dir, '.gitignore'), '# baton history and locks: local state, not for commits\n*\n', {
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
