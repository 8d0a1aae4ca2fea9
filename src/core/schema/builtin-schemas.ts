/**
 * The built-in schemas with their validators, compiled ahead of time (scripts/compile-schemas.mjs).
 * A module of its own so that what only reads a document never loads the validators: the CLI
 * builds it as a lazy bundle (scripts/cli-bundles.mjs), which a write loads on first use.
 */
import { builtinSchemas } from '../../generated/schemas.js';
import * as builtinValidators from '../../generated/validators.js';
import { wrap, type CompiledSchema, type Validator } from './schema.js';

export function builtinSchema(name: string): CompiledSchema | undefined {
  const known = compiled.get(name);
  if (known) return known;
  const schema = builtinSchemas[name];
  const validator = (builtinValidators as Record<string, Validator>)[name.replace(/[^a-zA-Z0-9]/g, '_')];
  if (!schema || !validator) return undefined;
  const made = wrap(name, schema, validator);
  compiled.set(name, made);
  return made;
}

/** One per built-in schema and process: its rules are read once, not on every write of a loop. */
const compiled = new Map<string, CompiledSchema>();
