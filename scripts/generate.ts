// Every committed file that is generated from the source, in one table: `npm run generate` writes
// them all, and test/architecture/generated.unit.test.ts fails while any committed one differs
// from what this would write (each is committed so that neither an install nor a build needs its
// generator). A new generated file is one entry of GENERATED.
//
// plugin/dist is not here: it is a build output (scripts/build-plugin.mjs, run by every build),
// checked by test/install/plugin-bundle.test.ts.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliReference } from './cli-docs.js';
import { schemaTypes } from './schema-types.js';
import { hookEntries, PLUGIN_CLI } from '../src/harness/install/hooks.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A folder whose every file is generated: a file there that the generator no longer makes is stale. */
export const GENERATED_FOLDERS = ['src/generated/types'];

/** Each generated file, by its path from the repository root, with what it is made from. */
export async function generatedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // The command definitions (src/cli/definitions.ts), as the parser and `baton help` read them.
  files.set('docs/cli.md', cliReference());
  // The config's and the built-in documents' schemas (schemas/*.schema.json).
  for (const [file, text] of Object.entries(await schemaTypes())) files.set(`src/generated/types/${file}`, text);
  // The event registry (src/harness/hooks/events.ts), as `baton install claude` also writes it.
  files.set(
    'plugin/hooks/hooks.json',
    `${JSON.stringify({ description: PLUGIN_HOOKS_DESCRIPTION, hooks: hookEntries(PLUGIN_CLI) }, null, 2)}\n`,
  );
  return files;
}

const PLUGIN_HOOKS_DESCRIPTION = 'baton: resume context, prompt audit, policy gates, wave barrier, snapshots';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generatedFiles();
  for (const folder of GENERATED_FOLDERS)
    for (const name of readdirSync(join(ROOT, folder)))
      if (!files.has(`${folder}/${name}`)) rmSync(join(ROOT, folder, name));
  for (const [path, text] of files) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), text);
  }
}
