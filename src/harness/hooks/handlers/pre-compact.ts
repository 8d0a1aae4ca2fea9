import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../../../fs/atomic.js';
import { confine, mkdirInside } from '../../../fs/confine.js';
import { globToRegExp } from '../../../project/policy/glob.js';
import { StateReader } from '../../../project/policy/state.js';
import type { HookOutcome } from '../types.js';
import { hookLockTimeoutMs, type HandlerContext } from './handler-context.js';
import { isDirectory, isFile } from '../../../fs/stat.js';
import { readStateText } from '../../task/state-read.js';

/**
 * PreCompact: a history revision of each configured document (so `baton history` / `baton show`
 * can return to the state as it was before compaction), then the scratchpad snapshot.
 * `snapshot.documents` names documents of `documents` or gives paths, where the last segment may
 * be a glob: the eneo profile lists the task and the run bus's `.ai_log/session-*.json` runs.
 * The scratchpad folder is `$CLAUDE_SCRATCHPAD_DIR`, else the newest folder matching one of the
 * configured patterns (both the original's path and `phase-NN-scratchpad`; the original looked only in the first).
 */
export async function preCompact({ config, root, env, now, documents }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const snapshot = config.snapshot;
  if (!snapshot) return outcome;
  for (const entry of snapshot.documents) {
    const label = (path: string) => (config.documents[entry] ? `${entry} document` : relative(root, path));
    for (const path of documentPaths(entry, config, root)) await markRevision(label(path), path, root, env, outcome);
  }
  const slug = new StateReader(config, root, documents).slug();
  if (!slug) return outcome;
  const folder = env.CLAUDE_SCRATCHPAD_DIR
    ? resolve(root, env.CLAUDE_SCRATCHPAD_DIR)
    : newestMatch(
        root,
        snapshot.scratchpads.map((p) => p.replaceAll('{slug}', slug)),
      );
  if (!folder || !isDirectory(folder)) return outcome;
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const dest = resolve(root, snapshot.dest, `${slug}-${stamp}.md`);
  let sections = `Captured at PreCompact. Source: ${folder}\n\n`;
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (!statSync(path).isFile()) continue;
    sections += `## ${name}\n\n\`\`\`\n${readStateText(path).replace(/\n$/, '')}\n\`\`\`\n\n`;
  }
  const previous = newestMatch(root, [join(snapshot.dest, `${slug}-*.md`)], isFile);
  if (previous && readStateText(previous).endsWith(`\n\n${sections}`)) {
    outcome.log.push(`[pre-compact] scratchpad unchanged since ${previous}`);
    return outcome;
  }
  const body = `# Scratchpad snapshot — slug: ${slug}, timestamp: ${stamp}\n\n${sections}`;
  mkdirInside(root, resolve(root, snapshot.dest), 'snapshot folder');
  writeFileAtomic(confine(root, dest, 'snapshot'), body, { mode: 0o644 });
  outcome.log.push(`[pre-compact] snapshotted scratchpad to ${dest}`);
  return outcome;
}

async function markRevision(
  label: string,
  path: string,
  root: string,
  env: NodeJS.ProcessEnv,
  outcome: HookOutcome,
): Promise<void> {
  const { openDoc } = await import('../../../doc/open.js');
  try {
    const doc = openDoc(path, { cwd: root, env: { ...env, BATON_ROOT: root }, lockTimeoutMs: hookLockTimeoutMs(env) });
    // Gemini CLI fires PreCompress before every model call, before it decides whether to compress:
    // a document unchanged since its last pre-compact revision already has that revision.
    const [last] = await doc.history({ limit: 1 });
    if (last?.op.kind === 'snapshot' && last.op.note === 'pre-compact') {
      outcome.log.push(`[pre-compact] ${label} unchanged since revision ${last.rev}`);
      return;
    }
    const result = await doc.snapshot('pre-compact', { writer: 'pre-compact' });
    if (result) outcome.log.push(`[pre-compact] ${label} saved as revision ${result.rev}`);
  } catch (error) {
    outcome.log.push(`[pre-compact] ${label} not saved: ${(error as Error).message}`);
  }
}

/** Existing files for one `snapshot.documents` entry: a document name, a path, or a path glob. */
function documentPaths(entry: string, config: HandlerContext['config'], root: string): string[] {
  const named = config.documents[entry]?.path;
  const full = resolve(root, named ?? entry);
  if (named !== undefined || !/[*?[]/.test(basename(full))) return isFile(full) ? [full] : [];
  const re = globToRegExp(basename(full));
  try {
    return readdirSync(dirname(full))
      .filter((n) => re.test(n))
      .sort()
      .map((n) => join(dirname(full), n))
      .filter(isFile);
  } catch {
    return [];
  }
}

/** The most recently modified folder (or file) matching any pattern (a `*` may stand in the last segment). */
function newestMatch(root: string, patterns: string[], kind = isDirectory): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  for (const pattern of patterns) {
    const full = isAbsolute(pattern) ? pattern : resolve(root, pattern);
    const parent = resolve(full, '..');
    const re = globToRegExp(basename(full));
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => re.test(n))) {
      const path = join(parent, name);
      const mtime = kind(path) ? statSync(path).mtimeMs : -1;
      if (mtime >= 0 && (!best || mtime > best.mtime)) best = { path, mtime };
    }
  }
  return best?.path;
}
