/**
 * While a long-running command runs (`baton serve`, `baton mcp`, `baton ui`), its build folder
 * (`dist/builds/<id>/`, scripts/build.mjs) holds `.in-use/<pid>`: scripts/switch-build.mjs never
 * removes a build with a live pid there. Such a process loads bundles from its build on first use
 * (the dashboard's, MCP's, PostgreSQL's, jq's), possibly hours after it started, and a rebuild in
 * the checkout meanwhile must not take them away. One killed outright leaves its marker, with a pid
 * no longer alive, which counts for nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { unlinkQuietly } from '../fs/atomic.js';

/**
 * Marks the build that `bundleDir` (a command bundle's folder) belongs to; the returned function
 * removes the mark. Nothing is marked outside `builds/<id>/` (the plugin's committed bundle, or
 * sources run as they are), nor where the folder cannot be written: a build is pruned only when
 * older than an hour and not among the three newest, so an unmarked process is safe that long.
 */
export function markBuildInUse(bundleDir: string | undefined = ownBundleDir()): () => void {
  if (bundleDir === undefined) return () => {};
  const build = dirname(bundleDir);
  if (basename(dirname(build)) !== 'builds') return () => {};
  const marker = join(build, '.in-use', String(process.pid));
  try {
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, '');
  } catch {
    return () => {};
  }
  return () => unlinkQuietly(marker);
}

/** The folder of the bundle this runs in (bundle-loader.ts passes it); none when run from sources. */
function ownBundleDir(): string | undefined {
  return typeof __dirname === 'string' ? __dirname : undefined;
}
