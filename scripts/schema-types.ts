// Writes the TypeScript types of the config and of the built-in documents from their schemas
// (schemas/*.schema.json) into src/generated/types/, committed so that neither an install nor a
// build needs the generator. After changing a schema: `npm run generate:types`
// (test/schemas/types.test.ts fails while the committed files are stale).
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TYPES_DIR = join(ROOT, 'src/generated/types');

/** File name -> content of every generated types module. */
export async function schemaTypes(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const style = JSON.parse(readFileSync(join(ROOT, '.prettierrc.json'), 'utf8')) as Record<string, unknown>;
  for (const file of readdirSync(join(ROOT, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')) as JSONSchema;
    const name = file.replace(/\.schema\.json$/, '').replace(/\./g, '-');
    out[`${name}.ts`] = await compile(schema, schema.title ?? name, {
      bannerComment: `// Generated from schemas/${file} by scripts/schema-types.ts. Do not edit.`,
      unreachableDefinitions: true,
      style,
      cwd: join(ROOT, 'schemas'),
    });
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(TYPES_DIR, { recursive: true });
  for (const [file, text] of Object.entries(await schemaTypes())) writeFileSync(join(TYPES_DIR, file), text);
}
