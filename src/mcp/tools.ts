/**
 * The MCP tools: each one a thin adapter over the library calls the CLI makes (openDoc, Run,
 * the goal and lint modules), so validation, ownership, limits and path checks are the same
 * whichever face writes. Schemas are hand-written and short: every tool's schema is sent to the
 * agent's context on every session.
 */
import { isoSeconds } from '../core/iso-time.js';
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import type { Json, JsonObject } from '../core/json.js';
import type { Doc } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import { goalPaths, goalRoot, isValidSlug, toolNames } from '../goal/goal-paths.js';
import { readPointer } from '../goal/pointer.js';
import { defaultRoot } from '../project/root.js';
import { Run } from '../run/run-document.js';
import { evaluateGate } from '../run/gate.js';
import { limitsFrom } from '../run/size-limits.js';
import { recordPhaseDone } from '../run/phase-done.js';
import { checkPhaseKey, startPhase } from '../run/phases.js';
import { confine, isInside } from '../fs/confine.js';
import { builtinRules } from '../core/schema/schema.js';
import { runtimeOptions } from '../core/runtime-options.js';
import type { ToolSchema } from './arguments.js';
import { Board } from '../board/board.js';

export interface ToolContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  writer: string;
}

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: ToolSchema;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<Json>;
}

const FILE = { type: 'string', description: 'document path, inside the project' };
const PATH = { type: 'string', description: 'dot-separated keys, e.g. phases.3-impl.status' };
const ARGS = { type: 'object', description: 'named jq args: $NAME = value' };
const RUN = { type: 'string', description: 'run label or .ai_log/session-<label>.json' };
const PHASE = { type: 'string', description: 'phase key, e.g. 3-impl' };
const NAME = { type: 'string', description: 'run name suffix (.ai_log/session-<run>-<name>.json)' };
const PATHS = { type: 'array', items: { type: 'string' } };

const schema = (properties: Record<string, object>, required: string[] = []): ToolDef['inputSchema'] => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});

/**
 * A document path for an agent must name a file in the project: the CLI takes an absolute path
 * elsewhere as the user's explicit choice (project/root.ts), but a tool call is the model's choice.
 * Symlinks inside the project that lead out are refused by the store itself.
 */
function openInProject(file: string, ctx: ToolContext): Doc {
  const root = defaultRoot(ctx.cwd, ctx.env);
  const target = resolve(ctx.cwd, file);
  if (!isInside(root, target) && !isInside(realOr(root), target)) {
    throw new BatonError('unsafe_path', `${file} is outside the project ${root}; give a path inside it`);
  }
  return openDoc(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    writer: ctx.writer,
    howToCreate: `the init tool (file ${JSON.stringify(file)})`,
    lockTimeoutMs: runtimeOptions(ctx.env).lockTimeoutMs,
  });
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const written = ({ rev, notes }: { rev: number; notes: string[] }): Json => ({
  rev,
  ...(notes.length > 0 ? { notes } : {}),
});
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function openRun(input: Record<string, unknown>, ctx: ToolContext): Run {
  checkPhaseKey(input.phase as string);
  return new Run(
    input.run as string,
    { cwd: ctx.cwd, env: ctx.env, writer: ctx.writer, limits: limitsFrom(ctx.env, false) },
    str(input.name),
  );
}

async function phaseDone(run: Run, key: string, input: Record<string, unknown>): Promise<Json> {
  const warnings = await recordPhaseDone(
    run,
    key,
    {
      agent: str(input.agent),
      outputs: Object.entries((input.outputs ?? {}) as JsonObject),
      evidence: (input.evidence ?? []) as string[],
      workItems: (input.workItems ?? []) as string[],
      also: str(input.also),
      promote: input.promote === true,
    },
    { output: 'output', evidence: 'evidence', also: 'also', promote: 'promote' },
  );
  return { done: key, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The goal verbs print to a CLI; here their lines come back as the tool's text. */
async function goalVerb(verb: 'now' | 'land', args: string[], ctx: ToolContext): Promise<Json> {
  const root = goalRoot(ctx.env);
  if (root === undefined)
    throw new BatonError('not_found', 'HOME is not set; the goals live in $HOME/.claude/orchestrate');
  let out = '';
  const cli = {
    out: (text: string) => void (out += text),
    err: (text: string) => void (out += text),
    readStdin: () => '',
    env: ctx.env,
    cwd: ctx.cwd,
  };
  const edit = await import('../goal/commands/edit.js');
  await edit[verb]({ root, names: toolNames(ctx.env), cli, cwd: realOr(ctx.cwd) }, args);
  return out;
}

/**
 * A schema for `init`: a built-in name, or a JSON Schema file inside the project (symlinks
 * resolved), since a path is the model's choice here; `baton init --schema` takes any path.
 */
function schemaInProject(ref: string, ctx: ToolContext): string {
  if (builtinRules(ref) || (!ref.includes('/') && !ref.endsWith('.json'))) return ref;
  const root = defaultRoot(ctx.cwd, ctx.env);
  confine(root, isAbsolute(ref) ? ref : resolve(root, ref), `schema ${ref}`);
  return ref;
}

/** The board's verbs for an agent; every rule is the board's, as for `baton work`. */
async function workAction(input: Record<string, unknown>, ctx: ToolContext): Promise<Json> {
  const board = new Board({ cwd: ctx.cwd, env: ctx.env, writer: ctx.writer });
  const agent = str(input.agent) ?? ctx.writer;
  const id = (): string => {
    const value = str(input.id);
    if (value === undefined) throw new BatonError('usage', `work ${String(input.action)} needs id`);
    return value;
  };
  switch (input.action) {
    case 'add': {
      const title = str(input.title);
      if (!title) throw new BatonError('usage', 'work add needs title');
      await board.add({
        id: id(),
        title,
        after: (input.after ?? []) as string[],
        paths: (input.paths ?? []) as string[],
        fields: (input.fields ?? {}) as JsonObject,
      });
      return { added: id() };
    }
    case 'ready':
      return board.ready();
    case 'claim': {
      const outcome = await board.claim(str(input.id), agent, input.lease as number | undefined);
      return outcome.claimed !== undefined
        ? { claimed: outcome.claimed, ...outcome.claim }
        : { claimed: null, why: outcome.why };
    }
    case 'heartbeat':
      return (await board.heartbeat(id(), agent)) as unknown as Json;
    case 'done':
      await board.done(id(), agent);
      return { done: id() };
    case 'block':
      await board.block(id(), agent, str(input.reason) ?? 'blocked');
      return { blocked: id() };
    case 'release':
      await board.release(id(), agent);
      return { released: id() };
    case 'wait': {
      const atLeast = input.atLeast as number | undefined;
      const mode =
        atLeast !== undefined ? { atLeast } : input.mode === 'any' ? { any: true as const } : { all: true as const };
      return (await board.wait(
        (input.ids ?? []) as string[],
        mode,
        (input.timeout as number | undefined) ?? 0,
      )) as unknown as Json;
    }
    default: {
      const current = await board.current();
      const one = str(input.id);
      return (one === undefined ? current : (current.items[one] ?? null)) as unknown as Json;
    }
  }
}

export const TOOLS: ToolDef[] = [
  {
    name: 'work',
    description:
      'The work board (baton work): add, claim (first ready without id), heartbeat, done, block, release, wait, show.',
    inputSchema: schema(
      {
        action: {
          type: 'string',
          enum: ['add', 'ready', 'claim', 'heartbeat', 'done', 'block', 'release', 'wait', 'show'],
        },
        id: { type: 'string' },
        agent: { type: 'string', description: 'default: the writer' },
        title: { type: 'string' },
        after: PATHS,
        paths: { ...PATHS, description: 'globs reserved while claimed' },
        fields: { type: 'object' },
        lease: { type: 'integer', minimum: 1, maximum: 86400 },
        reason: { type: 'string' },
        ids: PATHS,
        mode: { type: 'string', enum: ['all', 'any'] },
        atLeast: { type: 'integer', minimum: 1 },
        timeout: { type: 'number', minimum: 0, maximum: 86400 },
      },
      ['action'],
    ),
    run: async (input, ctx) => workAction(input, ctx),
  },
  {
    name: 'init',
    description:
      'Create a document, optionally bound to a schema (built-in name or project file); values fill its template.',
    inputSchema: schema(
      {
        file: FILE,
        schema: { type: 'string', description: 'e.g. eneo-task, or schemas/x.schema.json' },
        values: { type: 'object', description: "the schema template's values, or the document's keys" },
        force: { type: 'boolean', description: 'replace an existing document (history keeps it)' },
      },
      ['file'],
    ),
    run: async (input, ctx) => {
      const ref = str(input.schema);
      return written(
        await openInProject(input.file as string, ctx).init((input.values ?? {}) as JsonObject, {
          force: input.force === true,
          ...(ref !== undefined ? { schema: schemaInProject(ref, ctx) } : {}),
        }),
      );
    },
  },
  {
    name: 'get',
    description: 'Read a JSON document through a jq expression; returns the results.',
    inputSchema: schema({ file: FILE, expr: { type: 'string', description: 'jq, default .' }, args: ARGS }, ['file']),
    run: async (input, ctx) =>
      openInProject(input.file as string, ctx).get(str(input.expr) ?? '.', (input.args ?? {}) as JsonObject),
  },
  {
    name: 'update',
    description: 'Change a document with a jq expression, in one locked, validated step.',
    inputSchema: schema({ file: FILE, expr: { type: 'string' }, args: ARGS }, ['file', 'expr']),
    run: async (input, ctx) =>
      written(
        await openInProject(input.file as string, ctx).update(input.expr as string, (input.args ?? {}) as JsonObject),
      ),
  },
  {
    name: 'set',
    description: 'Set one field to a JSON value, or append it to an array field (append: true).',
    inputSchema: schema({ file: FILE, path: PATH, value: {}, append: { type: 'boolean' } }, ['file', 'path', 'value']),
    run: async (input, ctx) => {
      const doc = openInProject(input.file as string, ctx);
      return written(await doc[input.append === true ? 'append' : 'set'](input.path as string, input.value as Json));
    },
  },
  {
    name: 'consume',
    description: 'Return a field and set it to null, in one locked step.',
    inputSchema: schema({ file: FILE, path: PATH }, ['file', 'path']),
    run: async (input, ctx) => openInProject(input.file as string, ctx).consume(input.path as string),
  },
  {
    name: 'history',
    description: 'Revisions of a document, newest first: rev, time, writer, operation, patch.',
    inputSchema: schema({ file: FILE, limit: { type: 'integer', minimum: 1, maximum: 1000 } }, ['file']),
    run: async (input, ctx) =>
      (await openInProject(input.file as string, ctx).history({
        limit: (input.limit as number | undefined) ?? 20,
      })) as unknown as Json,
  },
  {
    name: 'phase',
    description: 'Start a pipeline phase (needs agent) or record it done with outputs and evidence files.',
    inputSchema: schema(
      {
        action: { type: 'string', enum: ['start', 'done'] },
        run: RUN,
        phase: PHASE,
        agent: { type: 'string' },
        rerun: { type: 'boolean', description: 'start: run a done phase again' },
        outputs: { type: 'object', description: 'done: output name -> value' },
        evidence: { ...PATHS, description: 'done: project files that prove the work' },
        workItems: { ...PATHS, description: 'done: project files the phase produced' },
        promote: { type: 'boolean', description: 'done: also copy outputs to the top level' },
        also: { type: 'string', description: 'done: a top-level list that gets the evidence too' },
        name: NAME,
      },
      ['action', 'run', 'phase'],
    ),
    run: async (input, ctx) => {
      const run = openRun(input, ctx);
      const key = input.phase as string;
      if (input.action === 'done') return phaseDone(run, key, input);
      const agent = str(input.agent);
      if (!agent) throw new BatonError('usage', `phase start needs agent (the agent that runs ${key})`);
      await run.update(
        (doc) => void startPhase(doc, key, { agent, now: isoSeconds(), rerun: input.rerun === true }),
        'phase',
      );
      return { started: key };
    },
  },
  {
    name: 'gate',
    description: "Check a phase's evidence on disk and record the verdict; pass is true when it holds.",
    inputSchema: schema({ run: RUN, phase: PHASE, name: NAME }, ['run', 'phase']),
    run: async (input, ctx) => {
      const run = openRun(input, ctx);
      const key = input.phase as string;
      const doc = await run.read();
      const result = evaluateGate(doc, key, run.location.root);
      const missing = result.rows.filter((row) => !row.holds).map((row) => `${row.kind} ${row.subject}`);
      if (doc.phases?.[key]) {
        await run.update((current) => {
          const entry = current.phases?.[key];
          if (entry)
            entry.gate = {
              result: result.pass ? 'pass' : 'fail',
              at: isoSeconds(),
              ...(missing.length > 0 ? { missing } : {}),
            };
        }, 'gate');
      }
      return result as unknown as Json;
    },
  },
  {
    name: 'goal',
    description:
      "The active goal's state.md: now adds a Now entry (a launch); land drops the entry labelled label and may append a Done line.",
    inputSchema: schema(
      {
        action: { type: 'string', enum: ['now', 'land'] },
        text: { type: 'string', minLength: 1, description: 'now: the entry; land: the Done line' },
        label: { type: 'string', minLength: 1 },
      },
      ['action'],
    ),
    run: async (input, ctx) => {
      const text = str(input.text);
      if (input.action === 'now') {
        if (!text) throw new BatonError('usage', 'goal now needs text (the Now entry)');
        return goalVerb('now', [text], ctx);
      }
      const label = str(input.label);
      if (!label) throw new BatonError('usage', 'goal land needs label (the Now entry to drop)');
      return goalVerb('land', text === undefined ? [label] : [label, text], ctx);
    },
  },
  {
    name: 'lint',
    description:
      "Check a goal's state.md against the workflow rules (default: the active goal); fix applies the safe fixes.",
    inputSchema: schema({ goal: { type: 'string', description: 'goal slug' }, fix: { type: 'boolean' } }),
    run: async (input, ctx) => {
      const root = goalRoot(ctx.env);
      if (root === undefined)
        throw new BatonError('not_found', 'HOME is not set; the goals live in $HOME/.claude/orchestrate');
      const slug = str(input.goal) ?? readPointer(root)?.slug;
      if (slug === undefined) throw new BatonError('not_found', 'no active goal; name one with goal');
      if (!isValidSlug(slug))
        throw new BatonError(
          'usage',
          `goal ${JSON.stringify(slug)} is not a goal slug (lowercase letters, digits, '-')`,
        );
      const paths = goalPaths(root, slug);
      const options = {
        logPath: paths.log,
        sidecarPath: paths.sidecar,
        env: ctx.env,
        goalTool: toolNames(ctx.env).goal,
      };
      let fixed: { code: string; change: string }[] = [];
      if (input.fix === true)
        fixed = (await (await import('../goal/lint/fix.js')).fixState(paths.state, options)) ?? [];
      const findings = (await import('../goal/lint/lint-file.js')).lintState(paths.state, options);
      if (findings === undefined) throw new BatonError('not_found', `goal '${slug}' has no state file ${paths.state}`);
      const remaining = new Set(findings.map((f) => f.code));
      return {
        file: paths.state,
        ...(input.fix === true ? { fixed: fixed.filter((f) => !remaining.has(f.code)) } : {}),
        findings,
      } as unknown as Json;
    },
  },
];
