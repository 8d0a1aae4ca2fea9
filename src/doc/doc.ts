import { resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import {
  checkLifecycle,
  checkReplace,
  initialDocument,
  prepareWrite,
  singleObject,
  stampText,
  type WriteContext,
} from '../core/prepare-write.js';
import { compileJq, type JqProgram } from '../core/jq/jq.js';
import { engineSteps, NOT_PLAIN, plainPath, readPlain } from '../core/jq/plain-path.js';
import { isObject, type Json, type JsonObject } from '../core/json.js';
import { checkShape, resolveLimits, type Limits } from '../core/limits.js';
import { diff } from '../core/patch.js';
import { getAt, parsePath, setAt } from '../core/dotted-paths.js';
import type { CompiledSchema } from '../core/schema/schema.js';
import { typedValue } from '../core/schema/typed-value.js';
import { readIdentity } from '../project/identity.js';
import { projectContext, type ProjectContext } from '../project/project-context.js';
import {
  checkDocumentKey,
  type Current,
  type Decision,
  type DocMeta,
  type HistoryEntry,
  type Operation,
  type ReadResult,
  type Store,
} from '../stores/index.js';
import { buildChange } from './commit.js';
import { mirrorsHold } from './mirror-files.js';
import type { MirrorPlace } from './mirrors.js';

export type Args = Record<string, Json>;

/**
 * Names the baton operation making a write (`phase`, `run.init`), which a schema's `sealed` fields
 * require. A symbol kept out of the public API: the run commands pass it, a library caller cannot,
 * so a plain `update` of a run's phases is refused from every face.
 */
export const OPERATION: unique symbol = Symbol('baton.operation');

interface WriteOptions {
  writer?: string;
  [OPERATION]?: string;
}
export type Updater = (doc: JsonObject) => JsonObject | Promise<JsonObject>;

export interface DocOptions {
  /** Who is writing; checked against the schema's owners, recorded in history. */
  writer?: string;
  /** Largest string value accepted in bytes (default 64 KiB). */
  maxValueBytes?: number;
  /** jq budgets, depth and size limits (core/limits.ts); unset ones take the defaults. */
  limits?: Partial<Limits>;
  now?: () => Date;
  /** The project whose baton.config.json adds rules (default: found from the document's root). */
  project?: ProjectContext | (() => ProjectContext);
  /**
   * How this caller creates a missing document, named by the not-found error (default: the
   * command `baton init KEY`): an agent limited to MCP tools cannot run a command.
   */
  howToCreate?: string;
}

export interface WriteResult {
  doc: JsonObject | null;
  rev: number;
  notes: string[];
}

/**
 * One document, over any Store. Every write is a read-modify-write inside `store.transact`, so
 * the document it changes is the one committed at that moment, never a stale copy.
 */
export class Doc {
  private ownProject?: ProjectContext;
  private ownLimits?: Limits;

  constructor(
    readonly store: Store,
    readonly key: string,
    private readonly root: string,
    private readonly options: DocOptions = {},
  ) {
    // Every face builds a Doc: a key naming a sidecar or leaving the project is refused here, for every store.
    checkDocumentKey(key);
  }

  private get howToCreate(): string {
    return this.options.howToCreate ?? `'baton init ${this.key}'`;
  }

  /** The committed document, or undefined when there is none. Throws `corrupt` for a bad file. */
  async read(): Promise<Json | undefined> {
    const read = await this.store.read(this.key);
    if (read.state === 'corrupt') {
      const history = await this.store.history(this.key, { limit: 1 }).then(
        (entries) => entries.length > 0,
        () => false,
      );
      throw corrupt(this.key, read.error, history, this.howToCreate, 'read');
    }
    if (read.meta?.schema !== undefined) await this.refreshMirrors(read.meta.schema, read);
    return read.state === 'ok' ? read.doc : undefined;
  }

  /**
   * Rewrites this machine's mirror files that differ from the document read (another machine
   * committed). Best effort: a mirror is derived, and a write reports what keeps it from landing.
   */
  private async refreshMirrors(ref: string, read: ReadResult): Promise<void> {
    try {
      const { loadSchemaRules } = await import('./schemas.js');
      const schema = loadSchemaRules(ref, this.root);
      const doc = read.state === 'ok' && isObject(read.doc) ? read.doc : null;
      // Compared first, as the common case: where a mirror may be written is checked (and its
      // module loaded) only when one is out of date.
      if (mirrorsHold(this.root, this.key, schema.rules, doc)) return;
      const { mirrorTargets, writeMirrors } = await import('./mirrors.js');
      const stale = await mirrorTargets(this.mirrorPlace(), schema, doc, { stale: true });
      if (stale.length > 0) writeMirrors(this.root, stale);
    } catch {
      // The read stands; the next write (or the doctor) reports and restores the mirror.
    }
  }

  /** Results of a jq expression on the document; none when the document does not exist. */
  async get(expr = '.', args: Args = {}): Promise<Json[]> {
    // A plain path (`.a.b`) is read without the engine where the value lets it (plain-path.ts):
    // the CLI's `get` bundle loads the engine on the first compile (scripts/cli-bundles.mjs). Any
    // other expression is compiled first, so one that does not compile fails before the read.
    const path = plainPath(expr);
    const program = path ? undefined : await compile(expr, args);
    const limits = await this.loadLimits();
    const doc = await this.read();
    if (doc === undefined) return [];
    if (path && limits.jqSteps >= engineSteps(path)) {
      const value = readPlain(doc, path);
      if (value !== NOT_PLAIN) {
        checkShape(value, limits, 'a result of the jq expression');
        return [value];
      }
    }
    return (program ?? (await compile(expr, args))).run(doc, args, { limits });
  }

  async init(
    values: JsonObject = {},
    options: WriteOptions & { schema?: string; force?: boolean } = {},
  ): Promise<WriteResult> {
    return this.write(
      options,
      async (current, context) => {
        if (current.state !== 'missing' && !options.force) {
          throw new BatonError(
            'exists',
            `${this.key} already exists; pass --force to replace it (the old document stays in history)`,
          );
        }
        if (current.state === 'corrupt') throw corrupt(this.key, current.error, current.rev > 0, this.howToCreate);
        checkLifecycle('create', context);
        const candidate = initialDocument(context.schema, values, context.now);
        if (current.state === 'ok' && isObject(current.doc)) {
          // Replacing: the old document's own schema decides, whatever schema the new one names.
          const { loadSchema } = await import('./schemas.js');
          checkReplace(current.doc, candidate, {
            ...context,
            schema: await loadSchema(current.meta.schema, this.root),
          });
        }
        return { kind: 'init', candidate, base: undefined };
      },
      options.schema,
    );
  }

  async update(
    change: string | Updater,
    args: Args = {},
    options: WriteOptions & { ifExists?: boolean } = {},
  ): Promise<WriteResult> {
    const program = typeof change === 'string' ? compileJq(change, [...Object.keys(args), '__now']) : undefined;
    await program?.ready();
    return this.write(options, async (current, context) => {
      if (current.state === 'missing' && options.ifExists) return undefined;
      const doc = this.existing(current);
      const candidate = program
        ? singleObject(
            program.run(
              doc,
              { ...args, __now: stampText(context.now, context.schema.rules.stampFormat) },
              { now: context.now, limits: this.limits },
            ),
            'the update expression',
          )
        : await (change as Updater)(structuredClone(doc));
      if (!isObject(candidate))
        throw new BatonError('jq_result', 'the update function must return an object; nothing was written');
      return { kind: 'update', expr: typeof change === 'string' ? change : undefined, candidate, base: doc };
    });
  }

  /**
   * Sets the value at `path`. With `typed`, a string value is text from a command line: it takes
   * the type the document's schema (or the value already there) gives that path (typed-value.ts).
   */
  async set(path: string, value: Json, options: { writer?: string; typed?: boolean } = {}): Promise<WriteResult> {
    const segments = parsePath(path);
    return this.write(options, async (current, context) => {
      const doc = this.existing(current);
      const typed =
        options.typed && typeof value === 'string'
          ? typedValue(value, context.schema.schema, segments, getAt(doc, segments))
          : value;
      return {
        kind: 'set',
        path,
        candidate: asObject(setAt(doc, segments, typed, path, this.limits.maxDocumentBytes), path),
        base: doc,
      };
    });
  }

  async append(path: string, value: Json, options: { writer?: string; typed?: boolean } = {}): Promise<WriteResult> {
    const segments = parsePath(path);
    return this.write(options, async (current, context) => {
      const doc = this.existing(current);
      const list = getAt(doc, segments) ?? null;
      if (list !== null && !Array.isArray(list)) {
        throw new BatonError(
          'invalid',
          `cannot append to ${path}: it holds ${Array.isArray(list) ? 'an array' : typeof list === 'object' ? 'an object' : `a ${typeof list}`}, not an array; use 'baton set' to replace it`,
        );
      }
      const item =
        options.typed && typeof value === 'string'
          ? typedValue(value, context.schema.schema, [...segments, String(list?.length ?? 0)], list?.at(-1))
          : value;
      return {
        kind: 'append',
        path,
        candidate: asObject(setAt(doc, segments, [...(list ?? []), item], path, this.limits.maxDocumentBytes), path),
        base: doc,
      };
    });
  }

  /**
   * Returns the value at `path` and sets it to null in the same locked step. `check` sees the value
   * before it is taken, inside that step: what it throws is thrown, and nothing is taken.
   */
  async consume(path: string, options: { writer?: string; check?: (value: Json) => void } = {}): Promise<Json> {
    const segments = parsePath(path);
    let taken: Json = null;
    await this.write(options, async (current) => {
      if (current.state === 'missing') return undefined;
      const doc = this.existing(current);
      taken = getAt(doc, segments) ?? null;
      if (taken === null) return undefined;
      options.check?.(taken);
      return { kind: 'consume', path, candidate: asObject(setAt(doc, segments, null, path), path), base: doc };
    });
    return taken;
  }

  /** Deletes the document; its history stays. A missing document is not an error. */
  async clear(options: { writer?: string } = {}): Promise<WriteResult> {
    return this.write(options, async (current, context) => {
      if (current.state === 'missing') return undefined;
      // Deleting a file that is not JSON would lose text no revision holds: the caller keeps it first.
      if (current.state === 'corrupt') throw corruptClear(this.key, current.error, current.rev > 0);
      checkLifecycle('delete', context);
      return {
        kind: 'clear',
        candidate: null,
        base: current.state === 'ok' && isObject(current.doc) ? current.doc : undefined,
      };
    });
  }

  async history(options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    return this.store.history(this.key, options);
  }

  async show(rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }> {
    return this.store.revision(this.key, rev);
  }

  /** Writes revision `rev`'s content as a new revision (validated like any write). */
  async revert(rev: number, options: { writer?: string } = {}): Promise<WriteResult> {
    const { doc: target } = await this.store.revision(this.key, rev);
    return this.write(options, async (current, context) => {
      const base = current.state === 'ok' && isObject(current.doc) ? current.doc : undefined;
      if (target === null) {
        checkLifecycle('delete', context);
        return { kind: 'revert', rev, candidate: null, base };
      }
      // Bringing back a deleted document creates it again: the `create` rule decides.
      if (current.state === 'missing') checkLifecycle('create', context);
      return { kind: 'revert', rev, candidate: asObject(structuredClone(target), `revision ${rev}`), base };
    });
  }

  /**
   * Records the document as it is now as a revision of its own (op `snapshot`, full copy), e.g.
   * before a host compacts its context, so `show` can return to that moment by name. Nothing in
   * the document changes; a missing document records nothing.
   */
  async snapshot(note: string, options: { writer?: string } = {}): Promise<{ rev: number } | undefined> {
    const writer = options.writer ?? this.options.writer;
    return this.store.transact(this.key, (current): Decision<{ rev: number } | undefined> => {
      if (current.state === 'missing') return { result: undefined };
      if (current.state === 'corrupt') throw corrupt(this.key, current.error, current.rev > 0, this.howToCreate);
      const doc = asObject(current.doc, this.key);
      const entry = { ...(writer ? { writer } : {}), op: { kind: 'snapshot', note } as const, patch: [] };
      return { result: { rev: current.rev + 1 }, commit: buildChange(current, doc, entry, this.clock()) };
    });
  }

  /** Calls `listener` with the document after each commit, from this process or any other. */
  watch(listener: (doc: Json | undefined) => void): () => void {
    return this.store.watch(this.key, () => {
      this.read().then(listener, () => undefined);
    });
  }

  private existing(current: Current): JsonObject {
    if (current.state === 'corrupt') throw corrupt(this.key, current.error, current.rev > 0, this.howToCreate);
    if (current.state === 'missing') {
      throw new BatonError('not_found', `${this.key} does not exist; create it with ${this.howToCreate}`);
    }
    return asObject(current.doc, this.key);
  }

  private async write(
    options: WriteOptions,
    plan: (current: Current, context: WriteContext) => Promise<Planned | undefined>,
    schemaRef?: string,
  ): Promise<WriteResult> {
    const check = await this.projectCheck();
    await this.loadLimits();
    // Loaded before the lock, so no other writer waits on it: the schemas (the validators are
    // a bundle of their own in the CLI, which a read never loads) and the mirrors' checks.
    const [{ loadSchema }, { mirrorTargets, writeMirrors }] = await Promise.all([
      import('./schemas.js'),
      import('./mirrors.js'),
      import('../core/schema/builtin-schemas.js'),
    ]);
    return this.store.transact(this.key, async (current): Promise<Decision<WriteResult>> => {
      const ref = schemaRef ?? current.meta.schema;
      const schema = await loadSchema(ref, this.root);
      const context = this.context(schema, options);
      const planned = await plan(current, context);
      if (!planned)
        return {
          result: {
            doc: current.state === 'ok' && isObject(current.doc) ? current.doc : null,
            rev: current.rev,
            notes: [],
          },
        };
      const op: Operation = {
        kind: planned.kind,
        ...(planned.expr ? { expr: planned.expr } : {}),
        ...(planned.path ? { path: planned.path } : {}),
        ...(planned.rev ? { rev: planned.rev } : {}),
        ...(planned.kind === 'init' ? { schema: ref ?? schema.name } : {}),
      };
      const commit =
        planned.candidate === null
          ? { doc: null, patch: diff(planned.base, undefined), notes: [] }
          : prepareWrite(planned.kind === 'init' ? undefined : planned.base, planned.candidate, context);
      // A change that changes nothing (a set to the same value, `.` without a stamp field) commits
      // nothing: no revision, no fsync. Validation still ran, so a bad document still refuses.
      if (commit.doc && check) check(commit.doc);
      if (commit.patch.length === 0 && ['update', 'set', 'append', 'consume'].includes(planned.kind)) {
        return { result: { doc: commit.doc, rev: current.rev, notes: commit.notes } };
      }
      const mirrors = await mirrorTargets(this.mirrorPlace(), schema, commit.doc, { stale: true });
      const entry = {
        ...(context.writer ? { writer: context.writer } : {}),
        op,
        patch: planned.kind === 'init' ? diff(planned.base, commit.doc ?? undefined) : commit.patch,
      };
      const meta: DocMeta | undefined =
        schemaRef !== undefined || planned.kind === 'init'
          ? { ...current.meta, schema: ref ?? schema.name }
          : undefined;
      return {
        result: { doc: commit.doc, rev: current.rev + 1, notes: commit.notes },
        commit: buildChange(current, commit.doc, entry, context.now, meta),
        ...(mirrors.length > 0 ? { committed: () => writeMirrors(this.root, mirrors) } : {}),
      };
    });
  }

  private mirrorPlace(): MirrorPlace {
    return { root: this.root, key: this.key, store: this.store, project: this.project() };
  }

  private project(): ProjectContext {
    const given = this.options.project;
    this.ownProject ??= typeof given === 'function' ? given() : (given ?? projectContext({ cwd: this.root, env: {} }));
    return this.ownProject;
  }

  /**
   * Budgets and bounds: the defaults, then the project's `limits`, then the caller's. The config's
   * validator (a bundle of its own in the CLI) is loaded only when the config sets limits.
   */
  private async loadLimits(): Promise<Limits> {
    if (!this.ownLimits) {
      const { config } = this.project();
      const own =
        config.limits === undefined ? undefined : (await import('../project/config-checks.js')).projectLimits(config);
      this.ownLimits = resolveLimits(own, this.options.limits);
    }
    return this.ownLimits;
  }

  /** Set by loadLimits, which get and every write await before anything reads it. */
  private get limits(): Limits {
    if (!this.ownLimits) throw new BatonError('internal', 'internal error: limits read before they were loaded');
    return this.ownLimits;
  }

  /** What baton.config.json adds to this document's rules (loaded only when it names the document). */
  private async projectCheck(): Promise<((doc: JsonObject) => void) | undefined> {
    const project = this.project();
    if (project.file.state === 'missing') return undefined;
    const { projectCheck } = await import('../project/config-checks.js');
    return projectCheck(project, resolve(this.root, this.key));
  }

  private clock(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  private context(schema: CompiledSchema, options: WriteOptions): WriteContext {
    const context: WriteContext = { schema, now: this.clock() };
    const identity = readIdentity(this.project().root);
    // With no name given, the sandbox's agent is the writer: it writes with its own rights.
    const who = options.writer ?? this.options.writer ?? identity?.agent;
    if (who !== undefined) context.writer = who;
    if (identity) context.identity = identity;
    if (options[OPERATION] !== undefined) context.operation = options[OPERATION];
    if (this.options.maxValueBytes !== undefined) context.maxValueBytes = this.options.maxValueBytes;
    context.limits = this.limits;
    return context;
  }
}

interface Planned {
  kind: Operation['kind'];
  expr?: string | undefined;
  path?: string;
  rev?: number;
  candidate: JsonObject | null;
  base: JsonObject | undefined;
}

function asObject(value: Json | undefined, label: string): JsonObject {
  if (isObject(value)) return value;
  throw new BatonError(
    'invalid',
    `${label} must be a JSON object at the top level, not ${Array.isArray(value) ? 'an array' : typeof value}; fix the value`,
  );
}

/**
 * The error for a document that is not valid JSON. Its fix depends on history: `doctor --repair`
 * restores the last good revision, and without one (a file baton never wrote) it can do nothing.
 */
function corruptClear(key: string, error: string, hasHistory: boolean): BatonError {
  const fix = hasHistory
    ? "run 'baton doctor --repair' (it keeps the bad file aside and restores the last good revision), then clear"
    : `move the file aside yourself (mv ${key} ${key}.bad) to drop it`;
  return new BatonError(
    'corrupt',
    `${key} is not valid JSON (${error}); nothing was cleared: clear never deletes text it cannot keep; ${fix}`,
  );
}

function corrupt(
  key: string,
  error: string,
  hasHistory: boolean,
  howToCreate: string,
  during: 'read' | 'write' = 'write',
): BatonError {
  const fix = hasHistory
    ? "run 'baton doctor --repair' to restore the last good revision"
    : `it has no history to restore from: fix the JSON by hand, or move the file aside and create it again with ${howToCreate}`;
  return new BatonError(
    'corrupt',
    `${key} is not valid JSON (${error}); ${during === 'write' ? 'nothing was written; ' : ''}${fix}`,
  );
}

async function compile(expr: string, args: Args): Promise<JqProgram> {
  const program = compileJq(expr, Object.keys(args));
  await program.ready();
  return program;
}
