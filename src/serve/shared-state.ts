/**
 * The documents a gated decision reads from a shared store (PostgreSQL), kept by the resident
 * server: one store and its one connection pool for the server's life (a hook process opens a pool
 * per call), and each document kept with the revision it was read at, and that revision's row
 * (Committed: a table dropped and made again restarts revisions at 1).
 *
 * The staleness rule (docs/serve.md): before each decision the committed revisions of the
 * configured documents are read in one round trip (an index lookup), and a kept copy is used only
 * at the revision committed now; a moved one is read again (which also brings this machine's
 * mirror files up to date, as `baton hook` does). A notification (LISTEN/NOTIFY) cannot stand in
 * for that round trip: the writer's `baton task phase-set GREEN` returns once its own commit is
 * acknowledged, while the notification reaches this process on another connection, in its own
 * time, so the agent's next tool call can arrive first. Decisions that arrive while a revision
 * query is under way share the next one (sent after they arrived), so eight agents at once cost
 * one round trip per turn, not eight. When the store cannot be reached nothing kept is used: the
 * decision reads this machine's files and says so, as `baton hook` does.
 *
 * Only the wait overlaps: the query is written as the hook arrives (`arrived`; PostgresStore's
 * revisions sends it within the call), and the payload and config are read and the rules run on the
 * kept copies meanwhile; that decision stands only if the revisions that come back are the ones it
 * used (Fetched.confirm, harness/hooks/pipeline.ts), else it is made again on the documents read at
 * them, or on this machine's files when the query failed.
 */
import { isAbsolute, resolve } from 'node:path';
import { SMALL_FILE_MAX_BYTES } from '../fs/bounded-read.js';
import { deepFreeze, readKept } from '../fs/kept-reads.js';
import type { HarnessConfig } from '../project/config.js';
import { locate } from '../project/root.js';
import { BOARD_KEY } from '../board/model.js';
import { chooseStore, hooksFetch, openStore, type Committed, type Store, type StoreChoice } from '../stores/index.js';
import { HOOK_STORE_BUDGET_MS, type Fetched } from '../harness/hooks/shared-documents.js';
import { debugLog } from '../harness/hooks/debug-log.js';

type Document = Record<string, unknown> | undefined;

/** Stores (each a connection pool) kept at once: a Cursor payload names its own workspace, so the set is not the server's to choose. */
const MAX_SOURCES = 8;

interface Source {
  store: Store;
  /** Each document with what it was read at (`at`: its revision and row, stamp()). */
  kept: Map<string, { at: string; doc: Document }>;
  /** The revision query decisions wait for; `next` is the one sent once it answers. */
  asking?: Promise<Map<string, Committed>>;
  next?: Promise<Map<string, Committed>>;
  keys: Set<string>;
}

type Fetch = (
  config: HarnessConfig,
  rawConfig: Record<string, unknown>,
  root: string,
  env: NodeJS.ProcessEnv,
  event: string,
) => Promise<Fetched | undefined>;

/** A revision check sent as a request arrived, for the source and key set the last fetch used. */
interface Early {
  from: Source;
  keys: number;
  asked: Promise<Map<string, Committed>>;
}

/**
 * A key's committed revision and row as one value to compare ('' for no row): the revision alone
 * would let a copy kept at revision 3 stand for the revision 3 of a table made again since.
 */
const stamp = (committed: Committed | undefined): string => (committed ? `${committed.rev}@${committed.row}` : '');

export interface SharedState {
  /**
   * The fetch for a hook that arrives now: for a PreToolUse, the revision check of the store the
   * last decision used is sent at once, before the payload and config are read, and the fetch
   * uses it when its source and key set are the same (else it asks as it starts).
   */
  arrived: (event: string) => Fetch;
  close: () => Promise<void>;
  /** Revision checks made and documents read since the start (GET /health). */
  counts: () => { checks: number; reads: number };
}

export function sharedState(): SharedState {
  const sources = new Map<string, Source>();
  const counts = { checks: 0, reads: 0 };

  const source = (choice: StoreChoice, root: string): Source => {
    const id = JSON.stringify([root, choice.url, choice.project]);
    let found = sources.get(id);
    if (!found) {
      const store = openStore({ ...choice, root, connectTimeoutMs: HOOK_STORE_BUDGET_MS });
      found = { store, kept: new Map(), keys: new Set() };
      if (sources.size >= MAX_SOURCES) {
        const [oldest, gone] = sources.entries().next().value as [string, Source];
        sources.delete(oldest);
        void gone.store.close().catch(() => undefined);
      }
      sources.set(id, found);
    }
    return found;
  };

  /** Revisions committed no earlier than this call: a query already under way may predate a commit the caller must see. */
  const revisions = (from: Source): Promise<Map<string, Committed>> => {
    const ask = () => {
      counts.checks++;
      return (from.store as Required<Pick<Store, 'revisions'>>).revisions([...from.keys]);
    };
    if (!from.asking) {
      const asking = ask();
      from.asking = asking;
      void asking.catch(() => undefined).finally(() => from.asking === asking && (from.asking = undefined));
      return asking;
    }
    from.next ??= from.asking
      .catch(() => undefined)
      .then(() => {
        const asking = ask();
        from.asking = asking;
        from.next = undefined;
        void asking.catch(() => undefined).finally(() => from.asking === asking && (from.asking = undefined));
        return asking;
      });
    return from.next;
  };

  let last: Source | undefined;
  const fetch = async (
    early: Early | undefined,
    ...[config, rawConfig, root, env, event]: Parameters<Fetch>
  ): Promise<Fetched | undefined> => {
    const choice = chooseStore(env, () => rawConfig);
    if (!hooksFetch(choice.url)) return undefined;
    const { named, located, board } = keysOf(config, root, env);
    const from = source(choice, located);
    for (const { key } of named) from.keys.add(key);
    from.keys.add(board);
    last = from;
    const started = Date.now();
    // Sent now (or as the request arrived), before anything is decided: no query under way
    // before that counts for it. Keys only grow, so an unchanged count is an unchanged set.
    const asked = early?.from === from && early.keys === from.keys.size ? early.asked : revisions(from);
    void asked.catch(() => undefined);
    const mirrorsOf = (name: string) => config.documents[name]?.mirrors ?? {};
    const failed = (error: unknown, documents: Map<string, Document>): Fetched => {
      // Unreachable: nothing kept is trusted, this machine's files judge, and the answer says so.
      from.kept.clear();
      const problem = `baton: the shared store could not be read (${(error as Error).message}); this hook judged by this machine's files, which may be stale`;
      debugLog(env, event, [`[baton serve] ${problem} (gave up after ${Date.now() - started} ms)`]);
      return { documents, problem };
    };
    /** The documents at the revisions committed now, each moved one read again. */
    const settled = async (): Promise<Fetched> => {
      const documents = new Map<string, Document>();
      try {
        const committed = await asked;
        const current = async (key: string, mirrors: Record<string, { file: string; empty: string }>) => {
          const at = stamp(committed.get(key));
          let kept = from.kept.get(key);
          if (kept?.at !== at || !mirrorsHold(mirrors, kept.doc, root)) {
            // Read through the engine, which rewrites this machine's mirror files that differ.
            counts.reads++;
            const { openDoc } = await import('../doc/open.js');
            const doc = await openDoc(key, { store: from.store, cwd: located, env }).read();
            kept = { at, doc: deepFreeze(doc && typeof doc === 'object' && !Array.isArray(doc) ? doc : undefined) };
            from.kept.set(key, kept);
          }
          return kept.doc;
        };
        for (const { name, key } of named) documents.set(name, await current(key, mirrorsOf(name)));
        return { documents, board: { doc: await current(board, {}) } };
      } catch (error) {
        return failed(error, documents);
      }
    };
    // While the query travels (the PostgreSQL server answers on another core), the decision is
    // made on the kept documents; it stands only if the revisions committed now are the ones it
    // used (Fetched.confirm). A document not kept, or a mirror here that no longer says what the
    // kept copy says, is read first, as before.
    const used = new Map<string, string>();
    const documents = new Map<string, Document>();
    const keep = (key: string, mirrors: Record<string, { file: string; empty: string }>) => {
      const kept = from.kept.get(key);
      if (!kept || !mirrorsHold(mirrors, kept.doc, root)) return false;
      used.set(key, kept.at);
      return kept;
    };
    for (const { name, key } of named) {
      const kept = keep(key, mirrorsOf(name));
      if (!kept) return settled();
      documents.set(name, kept.doc);
    }
    const keptBoard = keep(board, {});
    if (!keptBoard) return settled();
    return {
      documents,
      board: { doc: keptBoard.doc },
      confirm: async () => {
        let committed;
        try {
          committed = await asked;
        } catch {
          return settled();
        }
        for (const [key, at] of used) if (stamp(committed.get(key)) !== at) return settled();
        return undefined;
      },
    };
  };

  return {
    arrived(event) {
      const from = event === 'PreToolUse' ? last : undefined;
      if (!from) return (...args) => fetch(undefined, ...args);
      const early: Early = { from, keys: from.keys.size, asked: revisions(from) };
      void early.asked.catch(() => undefined);
      return (...args) => fetch(early, ...args);
    },
    counts: () => ({ ...counts }),
    async close() {
      await Promise.all([...sources.values()].map((from) => from.store.close().catch(() => undefined)));
      sources.clear();
    },
  };
}

interface Located {
  named: { name: string; key: string }[];
  /** The store's root. */
  located: string;
  /** The work board's key: its reservations are rules too (harness/policy/reservations.ts), kept alike. */
  board: string;
}

/** Per config object (kept while baton.config.json is unchanged, harness/hooks/pipeline.ts). */
const locatedFor = new WeakMap<HarnessConfig, { root: string; explicit: string; located: Located }>();

/**
 * The configured documents' keys, resolved as `baton hook` resolves them. With BATON_ROOT or
 * CLAUDE_PROJECT_DIR set and every document path relative, that is string work on the paths, the
 * root and that variable alone (project/root.ts's locate), so it is done once per config; else it
 * reads the filesystem (the git top level above the folder, an absolute path's real root), which
 * may change under a resident server, and is done on every decision.
 */
function keysOf(config: HarnessConfig, root: string, env: NodeJS.ProcessEnv): Located {
  const explicit = env.BATON_ROOT || env.CLAUDE_PROJECT_DIR;
  const seen = explicit ? locatedFor.get(config) : undefined;
  if (seen && seen.root === root && seen.explicit === explicit) return seen.located;
  const documents = Object.entries(config.documents);
  const located: Located = {
    named: documents.flatMap(([name, document]) =>
      document?.path ? [{ name, key: locate(document.path, root, env).key }] : [],
    ),
    located: locate('.', root, env).root,
    board: locate(BOARD_KEY, root, env).key,
  };
  if (explicit && documents.every(([, document]) => !document?.path || !isAbsolute(document.path)))
    locatedFor.set(config, { root, explicit, located });
  return located;
}

/**
 * Whether this machine's mirror files say what the kept document says. The gate reads a mirrored
 * field from its file (project/policy/state.ts): one removed or rewritten by hand since the
 * document was read must be restored before it judges, as `baton hook`'s read restores it. A
 * kept read: one stat while unchanged.
 */
function mirrorsHold(mirrors: Record<string, { file: string; empty: string }>, doc: Document, root: string): boolean {
  for (const [field, mirror] of Object.entries(mirrors)) {
    const value = doc?.[field];
    const word =
      value === undefined || value === null || value === ''
        ? mirror.empty
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
    try {
      const file = resolve(root, mirror.file);
      if (readKept(file, SMALL_FILE_MAX_BYTES, `mirror ${file}`, 'it is rewritten', mirrorWord) !== word) return false;
    } catch {
      return false;
    }
  }
  return true;
}

const mirrorWord = (text: string): string => text.trim();
