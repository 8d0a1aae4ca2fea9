// Switches dist/ to a complete build in <dist>/builds/<id>/.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/**
 * Builds younger than this are kept: a hook or CLI process lives well under a second, a library
 * user may span quick rebuilds. (Not a day: a build is ~23 MB, and a checkout rebuilds on every
 * npm test.) `baton serve`, `mcp` and `ui`, which run for hours, mark their build instead.
 */
const KEEP_MS = 60 * 60_000;
/** The newest builds, kept whatever their age. */
const KEEP_NEWEST = 3;

/**
 * Points the entry files of `dist` at build `id`, each by an atomic rename, then removes what
 * nothing should still run, and files of the old single-folder layout. A build stays while it is
 * this one, the one it replaced, one of the KEEP_NEWEST newest, younger than an hour, or in use by
 * a running `baton serve`, `mcp` or `ui` (a live pid in its `.in-use/`, src/cli/build-in-use.ts):
 * a server loads the dashboard's, MCP's and PostgreSQL's bundles from its build on first use,
 * hours after it started, so removing its build broke them. `.npmignore` keeps the other builds, and the code
 * caches commands write beside their bundles, out of `npm pack`.
 */
export function switchTo(dist, id, entries) {
  const previous = currentBuild(dist);
  // A running server's mark (.in-use/) is no file of the package either.
  writeAtomic(`${dist}/.npmignore`, `builds/*\n!builds/${id}\n.cache/\n.in-use/\n`);
  for (const [name, text] of Object.entries(entries)) writeAtomic(`${dist}/${name}`, text);
  const keep = new Set(['builds', 'package.json', '.npmignore', ...Object.keys(entries)]);
  for (const name of readdirSync(dist))
    if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(`${dist}/${name}`, { recursive: true, force: true });
  const now = Date.now();
  const builds = readdirSync(`${dist}/builds`)
    .map((name) => ({ name, mtimeMs: statSync(`${dist}/builds/${name}`).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const [rank, old] of builds.entries()) {
    if (old.name === id || old.name === previous || rank < KEEP_NEWEST || now - old.mtimeMs < KEEP_MS) continue;
    const folder = `${dist}/builds/${old.name}`;
    if (!inUse(folder)) rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether a live process has marked the build as its own (src/cli/build-in-use.ts). */
function inUse(folder) {
  let pids;
  try {
    pids = readdirSync(`${folder}/.in-use`);
  } catch {
    return false;
  }
  return pids.some((name) => {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // Another user's process: alive all the same.
      return error.code === 'EPERM';
    }
  });
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
