/**
 * The built-in schemas with their validators, compiled ahead of time (scripts/compile-schemas.mjs).
 * A module of its own so that what only reads a document never loads the validators: the CLI
 * builds it as a lazy bundle (scripts/cli-bundles.mjs), which a write loads on first use.
 */
import { builtinSchemas } from '../../generated/schemas.js';
import * as builtinValidators from '../../generated/validators.js';
import { isAsciiDigit, isAsciiLetter } from '../ascii.js';
import { wrap, type CompiledSchema, type Validator } from './schema.js';

export function builtinSchema(name: string): CompiledSchema | undefined {
  const known = compiled.get(name);
  if (known) return known;
  const schema = builtinSchemas[name];
  const validator = (builtinValidators as Record<string, Validator>)[validatorName(name)];
  if (!schema || !validator) return undefined;
  const made = wrap(name, schema, validator);
  compiled.set(name, made);
  return made;
}

/** The generated validator's name: every character but A-Z, a-z and 0-9 as `_` (eneo-task: eneo_task). */
function validatorName(name: string): string {
  let id = '';
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    id += isAsciiLetter(code) || isAsciiDigit(code) ? name[i] : '_';
  }
  return id;
}

/** One per built-in schema and process: its rules are read once, not on every write of a loop. */
const compiled = new Map<string, CompiledSchema>();
