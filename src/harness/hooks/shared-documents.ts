/**
 * On a shared store (PostgreSQL) the task files on this machine are not the documents: another
 * machine may have committed since. Before a handler runs, the documents its rules read are
 * fetched through the store, and that read rewrites this machine's mirror files that differ, so the
 * one-word mirrors the gates read are current as well. On the embedded file store the files are
 * the documents, so nothing is fetched and no store code is loaded.
 */
import type { HarnessConfig } from '../../project/config.js';
import type { SharedDocuments } from '../../project/policy/state.js';
import { chooseStore, hooksFetch } from '../../stores/index.js';
import { debugLog } from './debug-log.js';

/**
 * How long a hook may spend reaching the shared store, with no retries: a gated hook decides within
 * about a second even when the server is stopped or does not answer, well inside the host's hook
 * timeout (5 s for PreToolUse), which must never be what decides.
 */
export const HOOK_STORE_BUDGET_MS = 750;

export interface Fetched {
  documents: SharedDocuments;
  /**
   * The work board as a resident server keeps it (serve/shared-state.ts), checked by revision like
   * the documents; absent, a handler reads the board through the store itself.
   */
  board?: { doc: Record<string, unknown> | undefined };
  /** Why the store could not be read; the documents not fetched are judged by the local files. */
  problem?: string;
  /** The store's own error behind `problem`. */
  reason?: string;
  /**
   * Present when these are a resident server's kept documents, handed out while it asks the store
   * which revisions are committed: resolves to nothing when they still are the committed ones (the
   * decision made on them stands), else to the documents to decide on again.
   */
  confirm?: () => Promise<Fetched | undefined>;
}

export async function fetchSharedDocuments(
  config: HarnessConfig,
  rawConfig: Record<string, unknown>,
  root: string,
  env: NodeJS.ProcessEnv,
  event: string,
): Promise<Fetched | undefined> {
  const { url } = chooseStore(env, () => rawConfig);
  if (!hooksFetch(url)) return undefined;
  const { openDoc } = await import('../../doc/open.js');
  const documents = new Map<string, Record<string, unknown> | undefined>();
  const started = Date.now();
  for (const [name, document] of Object.entries(config.documents)) {
    if (!document?.path) continue;
    try {
      const doc = await openDoc(document.path, { cwd: root, env, connectTimeoutMs: HOOK_STORE_BUDGET_MS }).read();
      documents.set(name, doc && typeof doc === 'object' && !Array.isArray(doc) ? doc : undefined);
    } catch (error) {
      // The store cannot be reached: the rules read this machine's files, the last state it saw.
      // One failure ends the fetch, so a server that is down costs one connect wait, not one a document.
      const problem = `baton: the shared store could not be read (${(error as Error).message}); this hook judged by this machine's files, which may be stale`;
      debugLog(env, event, [
        `[baton hook] ${name}: ${problem} (gave up after ${Date.now() - started} ms; the hook had run ${Math.round(performance.now())} ms)`,
      ]);
      return { documents, problem, reason: (error as Error).message };
    }
  }
  return { documents };
}
