/**
 * Pipeline-run rows of `baton doctor`: a run's `.ai_log/session-*.json` is a
 * temporary machine bus and must not be committed. Baton does not edit .gitignore (it is the
 * project's file), so the doctor warns instead and names the rule. A warning does not fail the
 * report: the documents are healthy, only the repository setup is missing a line.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from './checks.js';

const STATE_FILE = /^session-.+\.json$/;
const FIX =
  'add /.ai_log/* and !/.ai_log/.gitkeep to .gitignore (baton does not edit it; git rm --cached a run file already tracked)';

export function runChecks(root: string): Finding[] {
  let names: string[];
  try {
    names = readdirSync(join(root, '.ai_log'))
      .filter((name) => STATE_FILE.test(name))
      .sort();
  } catch {
    return [];
  }
  if (names.length === 0) return [];
  const paths = names.map((name) => `.ai_log/${name}`);
  const ignored = gitIgnored(root, paths);
  if (ignored === undefined) return [];
  return paths.map((path) =>
    ignored.has(path)
      ? { ok: true, check: `${path} is git-ignored`, fix: '—' }
      : { ok: true, warn: true, check: `${path} is not git-ignored`, fix: FIX },
  );
}

/** The subset git ignores, or undefined when there is no repository (or no git) to ask. */
function gitIgnored(root: string, paths: string[]): Set<string> | undefined {
  const result = spawnSync('git', ['check-ignore', '--', ...paths], { cwd: root, encoding: 'utf8' });
  // 0: some ignored, 1: none ignored; anything else (128: not a repository, or no git at all) says nothing.
  if (result.error || (result.status !== 0 && result.status !== 1)) return undefined;
  return new Set(result.stdout.split('\n').filter(Boolean));
}
