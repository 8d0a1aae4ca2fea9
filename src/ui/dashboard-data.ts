/**
 * What the dashboard shows, read through the same library calls the CLI makes: documents are
 * listed by the project's store (Store.list: files with a `.baton/` sidecar, or the rows of a
 * shared store), read and reverted through openDoc, runs judged by the gate, goals by the lint. Every path a request names is
 * resolved against the project root, symlinks included, before anything is read.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BatonError, isBatonError, systemFix } from '../core/errors.js';
import { noEntry } from '../fs/absent.js';
import { isObject, type Json, type JsonObject } from '../core/json.js';
import { openDoc, openProjectStore } from '../doc/open.js';
import type { HistoryEntry, Listing } from '../stores/index.js';
import { goalRoot, isValidSlug, toolNames } from '../goal/goal-paths.js';
import { lintState } from '../goal/lint/lint-file.js';
import { blockedReasons, normalizeWave } from '../harness/task/wave-barrier.js';
import { projectContext } from '../project/project-context.js';
import { taskRules } from '../project/document-rules.js';
import { DEFAULT_PROFILE } from '../project/profiles/registry.js';
import { pipeline_run as isRunDoc } from '../generated/validators.js';
import { evaluateGate } from '../run/gate.js';
import { phaseOrder } from '../run/show.js';
import { isInside } from '../fs/confine.js';
import { readFileBounded } from '../fs/bounded-read.js';
import { readStateText } from '../harness/task/state-read.js';
import { boardSummary, boardView, isBoardValue } from './board-view.js';

export type Kind = 'task' | 'run' | 'goal' | 'board' | 'document';

export interface Listed {
  /** Project-relative path of a document; `goal:<slug>` for a goal. */
  id: string;
  kind: Kind;
  title: string;
  mtime: number;
  status?: string;
  error?: string;
}

export interface Project {
  root: string;
  realRoot: string;
  env: NodeJS.ProcessEnv;
}

/** Bounds what one request may make the server read (an evidence file, a state.md). */
const MAX_FILE_BYTES = 1024 * 1024;
const HISTORY_PAGE_MAX = 1000;

export function openProject(root: string, env: NodeJS.ProcessEnv): Project {
  return { root, realRoot: realpathSync(root), env };
}

export function kindOf(id: string, value: Json | undefined): Kind {
  if (
    /^\.ai_log\/[^/]*session-[^/]*\.json$/.test(id) ||
    (isObject(value) && typeof value.session === 'string' && isObject(value.phases))
  )
    return 'run';
  if (
    isObject(value) &&
    typeof value.slug === 'string' &&
    ('tdd_phase' in value || 'phase_total' in value || 'wave' in value)
  )
    return 'task';
  if (isBoardValue(value)) return 'board';
  return 'document';
}

function doc(project: Project, id: string) {
  return openDoc(id, { cwd: project.root, env: { ...project.env, BATON_ROOT: project.root } });
}

/** Every document baton knows in the project, then the goals, newest first. */
export async function listDocuments(project: Project): Promise<Listed[]> {
  const listed: Listed[] = [];
  for (const { key: id, time, error } of await storedDocuments(project)) {
    const mtime = Date.parse(time);
    // A folder the store could not list: shown with why, so the list does not pass for complete.
    if (error !== undefined) {
      listed.push({ id, kind: 'document', title: id, mtime, error });
      continue;
    }
    try {
      const value = await doc(project, id).read();
      const kind = kindOf(id, value);
      const status =
        kind === 'board' && isBoardValue(value)
          ? boardSummary(value, new Date())
          : isObject(value) && typeof value.status === 'string'
            ? value.status
            : undefined;
      const title =
        kind === 'task' && isObject(value)
          ? asText(value.slug)
          : kind === 'run' && isObject(value)
            ? `run ${asText(value.session)}`
            : id;
      listed.push({ id, kind, title, mtime, ...(status ? { status } : {}) });
    } catch (error) {
      listed.push({
        id,
        kind: 'document',
        title: id,
        mtime,
        error: isBatonError(error) ? error.message : String(error),
      });
    }
  }
  for (const goal of listGoals(project.env)) listed.push(goal);
  return listed.sort((a, b) => b.mtime - a.mtime || a.id.localeCompare(b.id));
}

/** The goals; a goal folder, or the goals' root, that cannot be looked into is a row saying why. */
function listGoals(env: NodeJS.ProcessEnv): Listed[] {
  const root = goalRoot(env);
  if (!root) return [];
  const unreadable = (slug: string, path: string, error: unknown): Listed => ({
    id: `goal:${slug}`,
    kind: 'goal',
    title: slug ? `goal ${slug}` : 'goals',
    mtime: 0,
    error: `${path} cannot be read, so ${slug ? 'this goal' : 'the goals in it'} cannot be shown: ${systemFix(error) ?? String(error)}`,
  });
  let slugs: string[];
  try {
    slugs = readdirSync(root).filter(isValidSlug);
  } catch (error) {
    return noEntry(error) ? [] : [unreadable('', root, error)];
  }
  return slugs.flatMap((slug) => {
    const state = join(root, slug, 'state.md');
    try {
      const stat = statSync(state, { throwIfNoEntry: false });
      return stat ? [{ id: `goal:${slug}`, kind: 'goal' as const, title: `goal ${slug}`, mtime: stat.mtimeMs }] : [];
    } catch (error) {
      // A file named like a goal is not one; a folder this user may not enter may hold one.
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? [] : [unreadable(slug, state, error)];
    }
  });
}

/** The project's documents as its store lists them. */
async function storedDocuments(project: Project): Promise<Listing[]> {
  const store = openProjectStore({ cwd: project.root, env: { ...project.env, BATON_ROOT: project.root } });
  try {
    return await store.list();
  } finally {
    await store.close();
  }
}

/**
 * The folders whose changes can change what the page shows: watched for live updates. On a
 * shared store a document's folder holds only its mirrors, if any, so the page is refreshed by
 * those and by the rescan.
 */
export async function watchedFolders(project: Project): Promise<{ folders: string[]; listing: string }> {
  const folders = new Set([project.root, join(project.root, '.ai_log')]);
  const stored = await storedDocuments(project).catch(() => []);
  for (const { key } of stored) folders.add(resolve(project.root, key, '..'));
  const goals = goalRoot(project.env);
  if (goals) {
    folders.add(goals);
    for (const goal of listGoals(project.env)) folders.add(join(goals, goal.id.slice(5)));
  }
  const wave = waveFile(project);
  if (wave) folders.add(resolve(wave, '..'));
  return { folders: [...folders], listing: JSON.stringify(stored) };
}

function waveFile(project: Project): string | undefined {
  try {
    const rules = taskRules(
      projectContext({
        cwd: project.root,
        env: { ...project.env, BATON_ROOT: project.root },
        defaultProfile: DEFAULT_PROFILE,
      }),
    );
    return resolve(project.root, rules.config.wave?.file ?? `${rules.config.stateDir}/wave.json`);
  } catch {
    return undefined;
  }
}

function taskPath(project: Project): string | undefined {
  try {
    return taskRules(
      projectContext({
        cwd: project.root,
        env: { ...project.env, BATON_ROOT: project.root },
        defaultProfile: DEFAULT_PROFILE,
      }),
    ).path;
  } catch {
    return undefined;
  }
}

/** A request's document id, refused unless it names a document inside the project. */
export function checkId(project: Project, id: string): string {
  if (typeof id !== 'string' || id === '' || id.length > 4096 || /[\u0000-\u001f]/.test(id))
    throw new BatonError('usage', 'doc must be a document path');
  if (id.startsWith('goal:')) {
    if (!isValidSlug(id.slice(5))) throw new BatonError('usage', `${id} is not a goal`);
    return id;
  }
  confineDocument(project, id);
  return id;
}

/**
 * A document id inside the project after symlinks. Its file need not exist: a shared store's
 * document may have no file on this machine; then the nearest folder that exists is checked.
 */
function confineDocument(project: Project, id: string): void {
  const absolute = resolve(project.root, id);
  if (!isInside(project.root, absolute)) throw new BatonError('unsafe_path', `${id} is outside the project`);
  for (let path = absolute; ; path = dirname(path)) {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      if (path === project.root) return;
      continue;
    }
    if (!isInside(project.realRoot, real))
      throw new BatonError('unsafe_path', `${id} leads outside the project through a symlink`);
    return;
  }
}

/** The real path of a project file to read: refused when it, or a symlink on the way, leads out. */
function confineRead(project: Project, path: string): string {
  const absolute = resolve(project.root, path);
  if (!isInside(project.root, absolute)) throw new BatonError('unsafe_path', `${path} is outside the project`);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new BatonError('not_found', `${path} does not exist`);
  }
  if (!isInside(project.realRoot, real))
    throw new BatonError('unsafe_path', `${path} leads outside the project through a symlink`);
  return real;
}

/** One document with what its kind adds: the wave barrier of a task, the gates of a run, a goal's lint. */
export async function documentDetail(project: Project, id: string): Promise<JsonObject> {
  if (id.startsWith('goal:')) return goalDetail(project, id.slice(5));
  const read = await doc(project, id).read();
  if (read === undefined) throw new BatonError('not_found', `${id} does not exist`);
  const value = read;
  const kind = kindOf(id, value);
  // A board may hold any number of items: the page gets the bounded view, not the document.
  if (kind === 'board' && isBoardValue(value)) return { id, kind, board: boardView(value, new Date()) };
  const detail: JsonObject = { id, kind, value };
  if (kind === 'task' && taskPath(project) === resolve(project.root, id)) detail.barrier = readWave(project);
  if (kind === 'run' && isRunDoc(value)) {
    detail.phases = phaseOrder(value).map((key) => ({
      key,
      gate: evaluateGate(value, key, project.root) as unknown as Json,
    }));
  }
  return detail;
}

function readWave(project: Project): Json {
  const file = waveFile(project);
  if (!file) return null;
  try {
    const wave = normalizeWave(JSON.parse(readStateText(confineRead(project, file))));
    return wave
      ? {
          wave: wave.wave,
          expected: wave.expected,
          done: wave.done,
          status: wave.status,
          seen_agents: wave.seen_agents,
          blocked_agents: wave.blocked_agents,
          blocked_reasons: blockedReasons(wave),
        }
      : null;
  } catch {
    return null;
  }
}

function goalDetail(project: Project, slug: string): JsonObject {
  const root = goalRoot(project.env);
  if (!root) throw new BatonError('not_found', 'HOME is not set; goals live in $HOME/.claude/orchestrate');
  const dir = join(root, slug);
  const state = join(dir, 'state.md');
  let real: string;
  try {
    real = realpathSync(state);
  } catch {
    throw new BatonError('not_found', `goal ${slug} has no state.md`);
  }
  if (!isInside(realpathSync(root), real))
    throw new BatonError('unsafe_path', `goal ${slug} leads outside ${root} through a symlink`);
  const text = readBounded(real);
  // No sidecar path: the lint's staleness bookkeeping is a write, and the page only reads.
  const findings =
    lintState(real, { env: project.env, goalTool: toolNames(project.env).goal, logPath: join(dir, 'log.md') }) ?? [];
  return { id: `goal:${slug}`, kind: 'goal', text, findings: findings as unknown as Json };
}

function readBounded(path: string): string {
  if (!statSync(path).isFile()) throw new BatonError('usage', 'not a file');
  return readFileBounded(
    path,
    MAX_FILE_BYTES,
    `the file ${path}`,
    'the page shows smaller files; open it in an editor',
  );
}

/** A project file's text (an evidence link): inside the project after symlinks, bounded. */
export function readProjectFile(project: Project, path: string): string {
  if (typeof path !== 'string' || path === '' || /[\u0000-\u001f]/.test(path))
    throw new BatonError('usage', 'path must be a file path');
  return readBounded(confineRead(project, path));
}

export async function historyPage(project: Project, id: string, limit: number): Promise<HistoryEntry[]> {
  const entries = await doc(project, id).history({ limit: Math.min(Math.max(1, limit), HISTORY_PAGE_MAX) });
  // Snapshots are whole documents: the timeline needs the patch, not a copy every 100 revisions.
  return entries.map(({ snapshot: _snapshot, ...entry }) => entry);
}

/**
 * One revision with the old value at each path its patch changes (null where there was none, or
 * the revision before is past what history keeps), so the page shows old and new values. Only
 * those values, never the documents: a revision of a board of many items sends what changed.
 */
export async function revisionDiff(project: Project, id: string, rev: number): Promise<JsonObject> {
  const d = doc(project, id);
  const { entry } = await d.show(rev);
  const before =
    rev > 1
      ? await d.show(rev - 1).then(
          (r) => r.doc,
          () => undefined,
        )
      : undefined;
  const old = entry.patch.map((op) => {
    const value = op.op === 'add' ? undefined : valueAt(before, op.path);
    return value === undefined ? null : { value };
  });
  const { snapshot: _snapshot, ...rest } = entry;
  return { entry: rest as unknown as Json, old };
}

/** The value at an RFC 6901 pointer, or undefined where the document has none. */
function valueAt(value: Json | undefined, pointer: string): Json | undefined {
  let at = value;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isObject(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

export async function revertTo(project: Project, id: string, rev: number, writer: string): Promise<number> {
  return (await doc(project, id).revert(rev, { writer })).rev;
}

/** A field shown as a title: a string as it is, any other value as its JSON. */
function asText(value: Json | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}
