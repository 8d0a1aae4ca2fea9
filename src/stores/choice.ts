/**
 * Which store a face opens, from the environment and the project's config: BATON_STORE (which
 * `baton --store URL` sets for the command and what it starts), else `store` in
 * baton.config.json, else the embedded file store. Light on purpose: the hook front reads it.
 */
import { BatonError } from '../core/errors.js';

export interface StoreChoice {
  /** A store URL; undefined for the embedded file store. */
  url?: string;
  /** Scopes documents in a shared store (BATON_PROJECT, else `project` in the config). */
  project?: string;
  /** Where the URL came from, for messages. */
  from?: string;
}

export function chooseStore(
  env: Record<string, string | undefined>,
  config: () => Record<string, unknown>,
  /** A store the caller names (the library's `store` option); it wins over BATON_STORE and the config. */
  named?: { url: string; from: string },
): StoreChoice {
  let raw: Record<string, unknown> | undefined;
  const read = () => (raw ??= config());
  // The project id is read from the config whichever way the store was named: machines that share
  // a store agree on it only through the config, as their folders (the fallback id) differ.
  const project = env.BATON_PROJECT || configString(read(), 'project');
  if (named) return { ...named, ...(project ? { project } : {}) };
  const fromEnv = env.BATON_STORE || undefined;
  const url = fromEnv ?? configString(read(), 'store');
  return {
    ...(url ? { url, from: fromEnv ? '--store or BATON_STORE' : 'store in baton.config.json' } : {}),
    ...(project ? { project } : {}),
  };
}

function configString(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  throw new BatonError(
    'usage',
    `${key} in baton.config.json must be a string such as "postgres://host/db"; fix the file`,
  );
}
