/**
 * The library's public API is what src/index.ts exports, and nothing else: this pins it. A new
 * export is a decision (add it here, document it); an engine internal (a store's file layout,
 * findDocuments, readDocument, SIDECAR, the policy or hook machinery) must never appear.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../helpers/cli.js';

const VALUES = [
  'BOARD_KEY',
  'BatonError',
  'Board',
  'Doc',
  'EXIT',
  'FileStore',
  'MemoryStore',
  'buildChange', // a Store implementation's commit contract (docs/guarantees.md)
  'checkNextRevision', // the same
  'compileJq', // docs/jq.md
  'formatJqCompact',
  'formatJqRaw',
  'isBatonError',
  'openDoc',
  'openStore',
];
const TYPES = [
  'Args',
  'BarrierState',
  'BoardOptions',
  'Change',
  'Claim',
  'Current',
  'Decision',
  'DocMeta',
  'DocOptions',
  'DocumentCheck',
  'EntryDraft',
  'ErrorCode',
  'FileStoreOptions',
  'Finding',
  'HistoryEntry',
  'Issue',
  'Item',
  'Json',
  'JsonObject',
  'NewItem',
  'OpenOptions',
  'Operation',
  'PendingItem',
  'ReadResult',
  'Store',
  'StoreOptions',
  'Updater',
  'WaitMode',
  'WorkBoard',
  'WriteResult',
];
/** The modules the entry may re-export from: the engine's own entries, never a backend's internals. */
const SOURCES = [
  './board/board.js',
  './core/errors.js',
  './core/jq/jq.js',
  './core/json.js',
  './doc/commit.js',
  './doc/doc.js',
  './doc/open.js',
  './stores/index.js',
];

function entry(): { names: string[]; sources: string[]; other: string[] } {
  const file = join(ROOT, 'src', 'index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const sources: string[] = [];
  const other: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier))
        sources.push(statement.moduleSpecifier.text);
    } else if (!ts.isImportDeclaration(statement)) other.push(statement.getText().split('\n')[0] as string);
  }
  return { names, sources, other };
}

describe('the public API', () => {
  it('exports exactly these values at run time', async () => {
    const api = (await import('../../src/index.js')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(api).sort(), [...VALUES].sort());
  });

  it('declares exactly these names, values and types, each re-exported by name from an engine entry', () => {
    const { names, sources, other } = entry();
    assert.deepEqual([...names].sort(), [...VALUES, ...TYPES].sort());
    assert.deepEqual(other, [], 'only named re-exports: no export *, no code of its own');
    for (const from of sources) assert.ok(SOURCES.includes(from), `re-exports from ${from}`);
  });
});
