import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temp folder filled from an object literal: { 'path/in/dir': 'contents' }. */
export function tempTree(files: Record<string, string> = {}): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'baton-test-'));
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
