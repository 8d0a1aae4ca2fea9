import { backendFor, type StoreOptions } from './registry.js';
import type { Store } from './store.js';

export type { StoreOptions } from './registry.js';

/**
 * The one place a store is made, for every face (CLI, library, hooks, compat scripts, the doctor,
 * MCP, UI), by the backend the URL's scheme names (registry.ts). Synchronous: a shared store
 * loads its driver and connects on first use, so a path that returns before reading anything
 * never pays for it.
 */
export function openStore(options: StoreOptions): Store {
  return backendFor(options.url, options.from).open({ ...options, url: options.url ?? '' });
}
