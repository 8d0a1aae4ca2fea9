/**
 * The harness's own rows of `baton doctor`, its one entry for the doctor (the CLI adds them after
 * the document rows): the config itself,
 * a task left stale by missing plan files (per the configured lane rules), mirror drift, a
 * mirror or wave.json left without a task, a dead holder of the state lock, and the files the
 * config says must exist. Fix texts name the compat commands a harness user already knows.
 */
import { existsSync, statSync } from 'node:fs';
import { absent, noEntry, unreadable } from '../fs/absent.js';
import { relative, resolve } from 'node:path';
import { CONFIG_FILE } from '../project/config-file.js';
import { mergeConfig, validateConfig } from '../project/config.js';
import type { ProjectContext } from '../project/project-context.js';
import { classificationIssues } from '../project/classification.js';
import { stateLockPath } from './task/state-lock.js';
import { normalizeWave } from './task/wave-barrier.js';
import { openDoc } from '../doc/open.js';
import type { ReadResult } from '../stores/index.js';
import { inspectLock, isStale } from '../fs/lock.js';
import type { JsonObject } from '../core/json.js';
import type { Finding } from '../doctor/checks.js';
import { sandboxMode } from './sandbox/probe.js';
import { hostTrustRows } from './hosts/host-trust.js';
import type { HarnessConfig } from '../project/config.js';
import { readStateText } from './task/state-read.js';
import { isReadRefusal, SMALL_FILE_MAX_BYTES, STATE_FILE_MAX_BYTES } from '../fs/bounded-read.js';

export async function harnessChecks(
  /** The project checked: its config file, and the root its markers lead to (where the state lives). */
  project: ProjectContext,
  /** The environment hooks run with (PATH finds bubblewrap; BATON_SANDBOX=off), for the sandbox row. */
  machine: Record<string, string | undefined>,
): Promise<Finding[]> {
  const rows: Finding[] = [];
  const { file, root } = project;
  const add = (ok: boolean, check: string, fix: string) => rows.push({ ok, check, fix: ok ? '—' : fix });
  if (file.state === 'missing') return rows;
  if (file.state === 'invalid') {
    add(false, `${CONFIG_FILE} loads`, file.error);
    return rows;
  }
  const checked = validateConfig(file.value);
  add(
    checked.config !== undefined,
    `${CONFIG_FILE} is valid`,
    checked.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
  );
  if (!checked.config) return rows;
  const config = mergeConfig(checked.config);
  const rel = (path: string) => relative(root, path) || path;
  const task = config.documents.task;
  const taskPath = task ? resolve(root, task.path) : undefined;
  const mirror = task?.mirrors?.tdd_phase;
  const mirrorPath = mirror ? resolve(root, mirror.file) : undefined;
  // A file a bounded read refuses (past its bound, a FIFO), or one that is there but cannot be
  // read (a link loop, a folder this user may not enter: not "missing", which the gates no longer
  // take it for either), is a failing row of its own, and the checks that would read it again are
  // skipped; the doctor goes on with the rest.
  const refused = new Set<string>();
  const readOrRow = (what: string, path: string, maxBytes: number, fix: string): string | undefined => {
    try {
      return readStateText(path, maxBytes);
    } catch (error) {
      if (noEntry(error)) return undefined;
      refused.add(path);
      if (isReadRefusal(error))
        add(false, `${rel(path)} is a regular file within its read bound`, `${error.message}; ${fix}`);
      else add(false, `${rel(path)} can be read`, unreadable(what, path, error).message);
      return undefined;
    }
  };
  const mirrorText =
    mirrorPath && !absent(mirrorPath)
      ? readOrRow(
          'phase mirror',
          mirrorPath,
          SMALL_FILE_MAX_BYTES,
          `mv ${rel(mirrorPath)} ${rel(mirrorPath)}.bad, then eneo-phase-set PHASE writes it again`,
        )?.trim()
      : undefined;
  const waveFile = config.wave ? resolve(root, config.wave.file) : undefined;

  if (taskPath) {
    const read = await readTask(taskPath, root, {});
    const name = rel(taskPath).split('/').pop() as string;
    if (read.state === 'missing') {
      add(true, `No ${name} (no stale state)`, '');
      if (mirror && mirrorText !== undefined && mirrorText !== mirror.empty)
        add(false, `phase mirror is ${mirrorText} but there is no current task`, `eneo-phase-set ${mirror.empty}`);
      if (waveFile && !absent(waveFile))
        add(
          false,
          `${rel(waveFile).split('/').pop()} present without a current task`,
          `baton task clear (removes ${rel(waveFile)})`,
        );
    } else if (read.state === 'corrupt' || !read.doc || typeof read.doc !== 'object' || Array.isArray(read.doc)) {
      // doctor --repair restores a file that does not parse, and only from history (a task file
      // baton never wrote has none); JSON that is not an object parses, so it is fixed by hand.
      add(
        false,
        `${name} is not ${read.state === 'corrupt' ? 'valid JSON' : 'a JSON object'}`,
        read.restorable
          ? 'baton doctor --repair restores its last good revision (the bad file is kept aside)'
          : read.state === 'corrupt'
            ? // clear refuses a file that does not parse (it would lose text no revision holds).
              `no history to restore it from: fix the JSON by hand, or move it aside (mv ${rel(taskPath)} ${rel(taskPath)}.bad) and baton task clear`
            : 'fix the JSON by hand, or baton task clear drops the task (the file is not kept)',
      );
    } else {
      const doc = read.doc as Record<string, unknown>;
      laneRow(doc, config.lanes, name, root, add);
      // A value outside the configured classification refuses every later write, whatever field that write touches.
      for (const issue of classificationIssues(doc as JsonObject, config.classification ?? {})) {
        add(
          false,
          `${name} ${issue.path}: ${issue.message}`,
          `eneo-task-update '.${issue.path} = <allowed value>' (or re-init the task)`,
        );
      }
      // The SubagentStop barrier leaves a wave.json it cannot read alone and sends the user here.
      const waveText =
        waveFile && !absent(waveFile)
          ? readOrRow('wave file', waveFile, STATE_FILE_MAX_BYTES, 'baton task wave-start WAVE EXPECTED rewrites it')
          : undefined;
      if (waveFile && waveText !== undefined && !normalizeWave(parseOrUndefined(waveText)))
        add(
          false,
          `${rel(waveFile).split('/').pop()} is not a JSON object (the wave barrier counts nothing into it)`,
          'baton task wave-start WAVE EXPECTED rewrites it (agents already counted are lost with it)',
        );
      const tdd = typeof doc.tdd_phase === 'string' ? doc.tdd_phase : '';
      const have = mirrorText || mirror?.empty || '';
      if (mirror && mirrorPath && !refused.has(mirrorPath) && tdd !== '' && tdd !== have)
        add(false, `phase mirror drift (${have} vs ${tdd})`, `eneo-phase-set ${tdd}`);
    }
  }
  const lock = inspectLock(stateLockPath(config, root));
  if (lock && isStale(lock, 30_000)) {
    const age = Math.round((Date.now() - (lock.owner?.acquiredAt ?? lock.mtimeMs)) / 1000);
    add(false, `state lock held for ${age}s by dead or stale owner`, `rm ${rel(stateLockPath(config, root))}`);
  }
  await sandboxRow(config, machine, rows);
  rows.push(...hostTrustRows(root, machine));
  for (const required of config.requiredFiles ?? []) {
    const path = resolve(root, required);
    const row = `configured file ${required} present`;
    if (absent(path)) add(false, row, `create ${required} or remove it from ${CONFIG_FILE}`);
    else {
      // There but not to be looked at (a link loop, a folder this user may not enter): not "create it".
      try {
        statSync(path);
        add(true, row, '');
      } catch (error) {
        add(false, row, unreadable('configured file', path, error).message);
      }
    }
  }
  return rows;
}

/**
 * Lane rows: each lane names the files its task needs (any one will do). None there is what a
 * task just created looks like as much as an abandoned one, so the row names the files to write
 * first, and clearing only for a task that is abandoned.
 */
function laneRow(
  doc: Record<string, unknown>,
  lanes: Record<string, string[]> | undefined,
  name: string,
  root: string,
  add: (ok: boolean, check: string, fix: string) => void,
): void {
  const slug = typeof doc.slug === 'string' ? doc.slug : '';
  const lane = typeof doc.lane === 'string' ? doc.lane : '';
  const rule = lanes?.[lane];
  if (!lanes) return add(true, `${name} present`, '');
  if (rule === undefined)
    return slug
      ? add(
          false,
          `state has unknown lane for slug ${slug}`,
          `set lane to one of ${Object.keys(lanes).join(', ')} (eneo-task-update '.lane = "..."'), or baton task clear if the task is abandoned`,
        )
      : add(true, `${name} present`, '');
  const paths = rule.map((path) => path.replaceAll('{slug}', slug));
  if (paths.length === 0 || paths.some((path) => existsSync(resolve(root, path))))
    return add(true, `${name} present (${lane} lane)`, '');
  add(
    false,
    `${lane} lane task ${slug} has none of ${paths.join(', ')}`,
    `write ${paths.join(' or ')} (what the ${lane} lane works from); if the task is abandoned, baton task clear`,
  );
}

/**
 * The task as its store holds it (the file, or the row of a shared store the config names), and
 * for one that does not parse, whether it has the history doctor --repair restores from.
 */
async function readTask(
  path: string,
  root: string,
  env: Record<string, string | undefined>,
): Promise<ReadResult & { restorable: boolean }> {
  const doc = openDoc(path, { cwd: root, env: { ...env, BATON_ROOT: root } });
  try {
    const read = await doc.store.read(doc.key);
    const restorable =
      read.state === 'corrupt' && (await doc.store.history(doc.key, { limit: 1 }).catch(() => [])).length > 0;
    return { ...read, restorable };
  } finally {
    await doc.store.close();
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Which OS sandbox holds the protected paths of shell calls in a protected phase, for a config
 * with phase-scoped shell rules: without one, the parser's strict mode is all there is.
 */
async function sandboxRow(
  config: HarnessConfig,
  env: Record<string, string | undefined>,
  rows: Finding[],
): Promise<void> {
  const phased = config.rules.some((r) => (r.on === 'bash' || r.on === 'both') && r.when !== undefined && r.paths);
  if (!phased) return;
  const mode = await sandboxMode(env);
  // Without one the gate still holds (the parser fails closed): worth fixing, not a fault.
  if (mode.kind === 'none')
    rows.push({
      ok: true,
      warn: true,
      check: `shell sandbox: none -> strict parser fallback (${mode.reason})`,
      fix: `${mode.fix} (docs/gates.md)`,
    });
  else rows.push({ ok: true, check: `shell sandbox: ${mode.kind} (${mode.program})`, fix: '—' });
}
