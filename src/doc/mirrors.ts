import type { JsonObject } from '../core/json.js';
import type { CompiledSchema } from '../core/schema/index.js';

/** Mirror contents after a commit: the field's text, or the mirror's `empty` word when unset. */
export function mirrorFiles(schema: CompiledSchema, doc: JsonObject | null): { file: string; content: string }[] {
  return schema.rules.mirrors.map((mirror) => ({
    file: mirror.file,
    content: `${mirrorText(doc?.[mirror.field], mirror.empty)}\n`,
  }));
}

export function mirrorText(value: unknown, empty: string): string {
  if (value === undefined || value === null || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
