import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Every folder tempDir() made in this process (test-process.ts removes them before its leftover check). */
export const madeTempDirs = new Set<string>();
// A failed assertion skips a test's own cleanup; removing what is left when the test file's process
// exits keeps a run from leaving folders in /tmp however its tests end.
process.on('exit', () => {
  for (const dir of madeTempDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** A fresh folder under the OS temp folder, removed when this process exits (or earlier by the caller). */
export function tempDir(prefix = 'baton-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeTempDirs.add(dir);
  return dir;
}

/** A temp folder filled from an object literal: { 'path/in/dir': 'contents' }. */
export function tempTree(files: Record<string, string> = {}): { dir: string; cleanup(): void } {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const OWNED_SCHEMA = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { phase: { enum: ['RED', 'GREEN'] }, notes: { type: 'array' } },
  'x-baton': { owners: { phase: ['orchestrator'] }, create: ['orchestrator'], delete: ['orchestrator'] },
});

/** The text of every file under `dir` but lock files, so "nothing was written" is checked, not assumed. */
export function treeFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.lock')) out[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}
