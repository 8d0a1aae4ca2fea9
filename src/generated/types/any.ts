// Generated from schemas/any.schema.json by scripts/schema-types.ts. Do not edit.
import type { JsonObject } from '../../core/json.js';

/**
 * The default for documents with no schema: any JSON object.
 */
export type Any = JsonObject;
