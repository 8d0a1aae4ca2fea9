// Every committed file that is generated from the source, in one table: `npm run generate` writes
// them all, and test/architecture/generated.unit.test.ts fails while any committed one differs
// from what this would write (each is committed so that neither an install nor a build needs its
// generator; of the config schema, only the store and profile properties are generated). A new
// generated file is one entry in generatedFiles().
//
// plugin/dist is not here: it is a build output (scripts/build-plugin.mjs, run by every build),
// checked by test/install/plugin-bundle.test.ts.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliReference } from './cli-docs.js';
import { schemaTypes } from './schema-types.js';
import { hookEntries, PLUGIN_CLI } from '../src/harness/install/hooks.js';
import { PROFILES } from '../src/project/profiles/registry.js';
import { SCHEMES, STORE_SCHEMES } from '../src/stores/schemes.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A folder whose every file is generated: a file there that the generator no longer makes is stale. */
export const GENERATED_FOLDERS = ['src/generated/types'];

/** Each generated file, by its path from the repository root, with what it is made from. */
export async function generatedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // The command definitions (src/cli/definitions.ts), as the parser and `baton help` read them.
  files.set('docs/cli.md', cliReference());
  // The store URLs a config file may name, from the store registry (src/stores/schemes.ts), and
  // the profiles it may choose, from the profile registry (src/project/profiles/registry.ts), so a
  // new backend or profile needs no edit of the schema. Before the types: they carry both.
  const configSchema = 'schemas/baton.config.schema.json';
  files.set(configSchema, withProfiles(withStoreSchemes(readFileSync(join(ROOT, configSchema), 'utf8'))));
  // The config's and the built-in documents' schemas (schemas/*.schema.json).
  for (const [file, text] of Object.entries(await schemaTypes(files.get(configSchema))))
    files.set(`src/generated/types/${file}`, text);
  // The event registry (src/harness/hooks/events.ts), as `baton install claude` also writes it.
  files.set(
    'plugin/hooks/hooks.json',
    `${JSON.stringify({ description: PLUGIN_HOOKS_DESCRIPTION, hooks: hookEntries(PLUGIN_CLI) }, null, 2)}\n`,
  );
  return files;
}

/**
 * The config schema's text with the `store` property's description, pattern and error message
 * rewritten from the store registry, and every other byte as it was (the file is written by hand).
 */
export function withStoreSchemes(text: string): string {
  const shown = SCHEMES.flatMap((entry) => entry.config.shown);
  return withProperty(text, 'store', {
    description: JSON.stringify(`Where documents live when neither --store nor BATON_STORE says: ${STORE_SCHEMES}.`),
    pattern: JSON.stringify(`^(${SCHEMES.map((entry) => entry.config.pattern).join('|')})$`),
    errorMessage: JSON.stringify(`must be a store URL: ${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`),
  });
}

/** The config schema's text with the `profile` property's description and enum rewritten from the profile registry. */
export function withProfiles(text: string): string {
  const profiles = Object.values(PROFILES);
  return withProperty(text, 'profile', {
    description: JSON.stringify(
      `The built-in profile the rest of the file adds to or changes: ${profiles.map((p) => `${p.name} (${p.summary})`).join(', ')}.`,
    ),
    // One line, as the file has always spelled it.
    enum: `[${profiles.map((p) => JSON.stringify(p.name)).join(', ')}]`,
  });
}

/** One top-level property's lines `"key": value` replaced by the JSON text given for each key. */
function withProperty(text: string, property: string, values: Record<string, string>): string {
  const start = text.indexOf(`\n    "${property}": {\n`);
  const end = text.indexOf('\n    },\n', start);
  if (start < 0 || end < 0) throw new Error(`schemas/baton.config.schema.json: no "${property}" property to rewrite`);
  let block = text.slice(start, end);
  for (const [key, value] of Object.entries(values)) {
    const line = new RegExp(`^( {6}"${key}": ).*?(,?)$`, 'm');
    if (!line.test(block))
      throw new Error(`schemas/baton.config.schema.json: the "${property}" property has no "${key}"`);
    block = block.replace(line, (_all, head: string, comma: string) => `${head}${value}${comma}`);
  }
  return text.slice(0, start) + block + text.slice(end);
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
