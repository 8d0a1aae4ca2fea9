import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ROOT } from '../helpers/cli.js';

/** Disk use of a tree as `du` counts it: allocated blocks, each hard-linked file once, symlinks not followed. */
function diskUse(path: string, seen = new Set<string>()): number {
  const stat = lstatSync(path);
  const inode = `${stat.dev}:${stat.ino}`;
  if (seen.has(inode)) return 0;
  seen.add(inode);
  let bytes = stat.blocks * 512;
  if (stat.isDirectory()) for (const name of readdirSync(path)) bytes += diskUse(join(path, name), seen);
  return bytes;
}

// The README's quick start promises a newcomer a size for `npm ci`; it once said 46 MB where the
// install took 142 MB. node_modules here is what `npm ci` installed from the lock file.
it("the README's node_modules figure is within a quarter of what npm ci installed", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const claimed = /(\d+) MB of `node_modules`/.exec(readme.replace(/\s+/g, ' '));
  assert.ok(claimed, 'the README gives the size of node_modules as "N MB of `node_modules`"');
  // Where node_modules is a link (a git worktree sharing the main checkout's), the folder it names.
  const measured = diskUse(realpathSync(join(ROOT, 'node_modules'))) / 2 ** 20;
  const ratio = measured / Number(claimed[1]);
  assert.ok(
    ratio > 0.75 && ratio < 1.25,
    `README says ${claimed[1]} MB of node_modules, du measures ${measured.toFixed(0)} MB: update the quick start`,
  );
});
