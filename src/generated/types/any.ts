// Generated from schemas/any.schema.json by npm run generate. Do not edit.
import type { JsonObject } from '../../core/json.js';

/**
 * The default for documents with no schema: any JSON object.
 */
export type Any = JsonObject;
