// The TypeScript types of the config and of the built-in documents, from their schemas
// (schemas/*.schema.json), for src/generated/types/. After changing a schema: `npm run generate`
// (scripts/generate.ts, whose test fails while the committed files are stale).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * File name -> content of every generated types module; `configSchema`, the config schema's text
 * as npm run generate is about to write it (its store and profile properties come from the registries).
 */
export async function schemaTypes(configSchema?: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const style = JSON.parse(readFileSync(join(ROOT, '.prettierrc.json'), 'utf8')) as Record<string, unknown>;
  for (const file of readdirSync(join(ROOT, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    const source =
      file === 'baton.config.schema.json' && configSchema !== undefined
        ? configSchema
        : readFileSync(join(ROOT, 'schemas', file), 'utf8');
    const schema = JSON.parse(source) as JSONSchema;
    const name = file.replace(/\.schema\.json$/, '').replace(/\./g, '-');
    const banner = `// Generated from schemas/${file} by npm run generate. Do not edit.`;
    const text = await compile(freeFormAsJson(schema) as JSONSchema, schema.title ?? name, {
      bannerComment: banner,
      unreachableDefinitions: true,
      style,
      cwd: join(ROOT, 'schemas'),
    });
    const json = /\bJsonObject\b/.test(text) ? "import type { JsonObject } from '../../core/json.js';\n" : '';
    out[`${name}.ts`] = text.replace(`${banner}\n`, `${banner}\n${json}`);
  }
  return out;
}

/**
 * A free-form object (`"type": "object"` and nothing about its keys, like a phase's outputs) holds
 * JSON: typed as the engine's JsonObject rather than `{[k: string]: unknown}`, so its values pass
 * to the JSON helpers as they are.
 */
function freeFormAsJson(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(freeFormAsJson);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = freeFormAsJson(value);
  const free =
    out.type === 'object' && !out.properties && out.additionalProperties === undefined && !out.patternProperties;
  return free ? { ...out, tsType: 'JsonObject' } : out;
}
