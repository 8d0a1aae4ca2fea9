// Generated from schemas/any.schema.json by scripts/schema-types.ts. Do not edit.

/**
 * The default for documents with no schema: any JSON object.
 */
export interface Any {
  [k: string]: unknown;
}
