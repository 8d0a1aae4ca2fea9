import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomic } from '../../stores/file/atomic.js';
import { globToRegExp } from '../policy/glob.js';
import { StateReader } from '../policy/state.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './context.js';

/**
 * PreCompact: a history revision of each configured document (so `baton history` / `baton show`
 * can return to the state as it was before compaction), then the scratchpad snapshot of spec 8.6.
 * The scratchpad folder is `$CLAUDE_SCRATCHPAD_DIR`, else the newest folder matching one of the
 * configured patterns (both the original's path and `phase-NN-scratchpad`, 11.17).
 */
export async function preCompact({ config, root, env, now }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const snapshot = config.snapshot;
  if (!snapshot) return outcome;
  for (const name of snapshot.documents) await markRevision(name, { config, root }, outcome);
  const slug = new StateReader(config, root).slug();
  if (!slug) return outcome;
  const folder = env.CLAUDE_SCRATCHPAD_DIR ? resolve(root, env.CLAUDE_SCRATCHPAD_DIR) : newestMatch(root, snapshot.scratchpads.map((p) => p.replaceAll('{slug}', slug)));
  if (!folder || !isFolder(folder)) return outcome;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const dest = resolve(root, snapshot.dest, `${slug}-${stamp}.md`);
  let body = `# Scratchpad snapshot — slug: ${slug}, timestamp: ${stamp}\n\nCaptured at PreCompact. Source: ${folder}\n\n`;
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (!statSync(path).isFile()) continue;
    body += `## ${name}\n\n\`\`\`\n${readFileSync(path, 'utf8').replace(/\n$/, '')}\n\`\`\`\n\n`;
  }
  mkdirSync(resolve(root, snapshot.dest), { recursive: true });
  writeFileAtomic(dest, body, { mode: 0o644 });
  outcome.log.push(`[pre-compact] snapshotted scratchpad to ${dest}`);
  return outcome;
}

async function markRevision(name: string, { config, root }: Pick<HandlerContext, 'config' | 'root'>, outcome: HookOutcome): Promise<void> {
  const path = config.documents[name]?.path;
  if (!path || !existsSync(resolve(root, path))) return;
  const { openDoc } = await import('../../doc/open.js');
  try {
    const result = await openDoc(path, { cwd: root, env: { BATON_ROOT: root }, lockTimeoutMs: 5000 }).snapshot('pre-compact', { writer: 'pre-compact' });
    if (result) outcome.log.push(`[pre-compact] ${name} document saved as revision ${result.rev}`);
  } catch (error) {
    outcome.log.push(`[pre-compact] ${name} document not saved: ${(error as Error).message}`);
  }
}

/** The most recently modified folder matching any pattern (a `*` may stand in the last segment). */
function newestMatch(root: string, patterns: string[]): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  for (const pattern of patterns) {
    const full = isAbsolute(pattern) ? pattern : resolve(root, pattern);
    const parent = resolve(full, '..');
    const re = globToRegExp(basename(full));
    let names: string[] = [];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => re.test(n))) {
      const path = join(parent, name);
      const mtime = isFolder(path) ? statSync(path).mtimeMs : -1;
      if (mtime >= 0 && (!best || mtime > best.mtime)) best = { path, mtime };
    }
  }
  return best?.path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
