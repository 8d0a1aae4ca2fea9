/**
 * baton installed inside a project, as `npm install --save-dev baton-state` leaves it: a real copy
 * (no symlink, so the install sees it inside the project) of the committed plugin (its hook
 * wrapper and self-contained CLI bundle) with the package's bin script, its dist/cli.js leading
 * to that bundle. Enough for `baton install` and every hook.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/cli.js';

export function packageInProject(project: string): string {
  const dir = join(project, 'node_modules', 'baton-state');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'plugin'), join(dir, 'plugin'), { recursive: true });
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'cli.js'), "require('../plugin/dist/cli.js');\n");
  return join(dir, 'bin', 'baton.js');
}

/** `baton <args>` through the project's own copy. */
export function projectBaton(project: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [join(project, 'node_modules', 'baton-state', 'bin', 'baton.js'), ...args],
    {
      cwd: project,
      env: cleanEnv(),
      encoding: 'utf8',
    },
  );
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
