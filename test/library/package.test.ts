import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A consumer project that depends on baton, as a user's would. */
function consumer(code: string): { dir: string; cleanup(): void } {
  const tree = tempTree({
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
    }),
    'main.ts': code,
  });
  mkdirSync(join(tree.dir, 'node_modules'));
  symlinkSync(ROOT, join(tree.dir, 'node_modules', 'baton-state'));
  return tree;
}

describe('the published library entry', () => {
  it('imports by package name and runs a document round trip', async (t) => {
    const tree = consumer('');
    t.after(tree.cleanup);
    writeFileSync(
      join(tree.dir, 'run.mjs'),
      `
      import { openDoc, MemoryStore, isBatonError } from 'baton-state';
      const doc = openDoc('notes.json', { cwd: process.cwd(), env: {} });
      await doc.init({ n: 1 });
      await doc.update('.n += $k', { k: 2 });
      const mem = openDoc('m.json', { store: new MemoryStore() });
      await mem.init({});
      let code = '';
      try { await doc.update('.n = (1, 2)'); } catch (error) { code = isBatonError(error) ? error.code : 'other'; }
      console.log(JSON.stringify({ got: await doc.get('.n'), code }));
    `,
    );
    const result = spawnSync(process.execPath, ['run.mjs'], { cwd: tree.dir, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { got: [3], code: 'jq_result' });
  });

  it('ships types that accept correct use and reject wrong use', (t) => {
    const good = consumer(`
      import { openDoc, type Json, type HistoryEntry } from 'baton-state';
      const doc = openDoc('x.json', { writer: 'lead' });
      export async function use(): Promise<[Json[], HistoryEntry[]]> {
        await doc.update((body) => ({ ...body, n: 1 }));
        return [await doc.get('.n'), await doc.history({ limit: 5 })];
      }
    `);
    t.after(good.cleanup);
    const ok = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: good.dir, encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stdout);
    const bad = consumer(`
      import { openDoc } from 'baton-state';
      export const wrong = openDoc('x.json').update(42);
    `);
    t.after(bad.cleanup);
    const refused = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: bad.dir, encoding: 'utf8' });
    assert.notEqual(refused.status, 0);
    assert.match(refused.stdout, /main\.ts.*error TS2345/);
  });
});
