import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

// What each bundle of the current build was made from, read from its source map.
const build = join(
  ROOT,
  'dist',
  'builds',
  /builds\/([^/]+)\//.exec(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8'))?.[1] ?? '',
);
const sources = (file: string): string[] =>
  (JSON.parse(readFileSync(join(build, `${file}.map`), 'utf8')) as { sources: string[] }).sources;

// Every hook call is a fresh process that loads its command's bundle: a library only some runs
// need must stay in a lazy bundle of its own (scripts/build.mjs), not be copied into the commands.
test('the PostgreSQL driver, Ajv, yaml and re2js are lazy bundles of their own, in no command bundle', () => {
  const libraries = ['pg', 'ajv', 'yaml', 're2js'];
  for (const file of readdirSync(join(build, 'commands')).filter((name) => name.endsWith('.js'))) {
    // The MCP server is one long-lived process, and its SDK imports Ajv itself; baton serve is one
    // too, and serves the same MCP tools over HTTP.
    const longLived = file === 'mcp.js' || file === 'serve.js';
    const kept = longLived ? libraries.filter((name) => name !== 'ajv') : libraries;
    const inside = sources(`commands/${file}`).filter((source) =>
      kept.some((name) => source.includes(`node_modules/${name}/`)),
    );
    assert.deepEqual(inside, [], `commands/${file} carries no copy of ${libraries.join(', ')}`);
  }
  assert.ok(sources('lazy/postgres.js').some((source) => source.includes('node_modules/pg/')));
  assert.ok(sources('lazy/ajv.js').some((source) => source.includes('node_modules/ajv/')));
});

// `baton get` is a Node start plus a read: what only a write runs (the validators of the built-in
// schemas and of the config, the checks of where a mirror may be written) is in lazy bundles a
// read loads only when a mirror is out of date or the config sets limits; a write carries it inline.
test("get's bundle carries no validator and no mirror check; update's carries them inline", () => {
  const writeOnly = [
    'src/generated/validators.js',
    'src/generated/config-validator.js',
    'src/doc/mirrors.ts',
    'src/project/policy/protect.ts',
  ];
  const inGet = sources('commands/get.js').filter((source) => writeOnly.some((path) => source.endsWith(path)));
  assert.deepEqual(inGet, []);
  const lazy = ['validators', 'config-checks', 'mirrors'].flatMap((name) => sources(`lazy/${name}.js`));
  const inUpdate = sources('commands/update.js');
  for (const path of writeOnly) {
    assert.ok(
      lazy.some((source) => source.endsWith(path)),
      `a lazy bundle carries ${path}`,
    );
    // A write runs them every time: as bundles of their own they cost it more than inline.
    assert.ok(
      inUpdate.some((source) => source.endsWith(path)),
      `update carries ${path}`,
    );
  }
});
