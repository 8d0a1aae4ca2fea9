// Switches dist/ to a complete build in <dist>/builds/<id>/.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** Builds older than this, other than the current one and the one it replaced, are removed. */
const KEEP_MS = 15 * 60_000;

/**
 * Points the entry files of `dist` at build `id`, each by an atomic rename, then removes what
 * nothing should still run: every build but this and the one it replaced, once 15 minutes old (a
 * hook or CLI process lives well under a second; the margin covers long-running library users
 * across quick rebuilds), and files of the old single-folder layout. `.npmignore` keeps the other
 * builds, and the code caches commands write beside their bundles, out of `npm pack`.
 */
export function switchTo(dist, id, entries) {
  const previous = currentBuild(dist);
  writeAtomic(`${dist}/.npmignore`, `builds/*\n!builds/${id}\n.cache/\n`);
  for (const [name, text] of Object.entries(entries)) writeAtomic(`${dist}/${name}`, text);
  const keep = new Set(['builds', 'package.json', '.npmignore', ...Object.keys(entries)]);
  for (const name of readdirSync(dist))
    if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(`${dist}/${name}`, { recursive: true, force: true });
  const now = Date.now();
  for (const old of readdirSync(`${dist}/builds`)) {
    if (old === id || old === previous) continue;
    const folder = `${dist}/builds/${old}`;
    if (now - statSync(folder).mtimeMs > KEEP_MS) rmSync(folder, { recursive: true, force: true });
  }
}

/** The build an entry file points at, read from the CommonJS entry (cli.js). */
export function currentBuild(dist) {
  try {
    return /builds\/([^/]+)\//.exec(readFileSync(`${dist}/cli.js`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

function writeAtomic(file, text) {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
