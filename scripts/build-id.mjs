// A build's identity: a hash of everything a build is made from (src/, schemas/, the build scripts,
// package.json and the lock file), defined into every bundle as BATON_BUILD and written beside the
// plugin's bundle (plugin/dist/build-id, read by the hook client). `baton serve` answers hooks and
// CLI commands only of its own build (docs/serve.md, "Another build"): the package version alone
// says nothing of a rebuild, or of a plugin updated from git at the same version.
//
// Of the sources, not of the bundles: dist/ and the plugin's bundle are built differently from the
// same sources (a global `baton` and the plugin's hooks share one server), a coverage build
// (unminified) means the same code, and the identity is known before esbuild runs, so every bundle
// can carry it without hashing itself. What src/generated/ holds besides types/ is made from
// schemas/ and scripts/ at build time, so it is left out.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['src', 'schemas', 'scripts', 'package.json', 'package-lock.json'];

/** 16 hex digits of a SHA-256 over each input file's path and bytes, in path order, from `dir`. */
export function buildId(dir = '.') {
  const hash = createHash('sha256');
  for (const path of ROOTS.flatMap((root) => files(dir, root)).sort()) {
    const bytes = readFileSync(join(dir, path));
    hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex').slice(0, 16);
}

function files(dir, path) {
  let entries;
  try {
    entries = readdirSync(join(dir, path), { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR') return [path];
    // A checkout without a lock file (or a copy of part of one): what is there is the build.
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries.flatMap((entry) => {
    const child = `${path}/${entry.name}`;
    if (child.startsWith('src/generated/') && !child.startsWith('src/generated/types')) return [];
    return entry.isDirectory() ? files(dir, child) : entry.isFile() ? [child] : [];
  });
}
