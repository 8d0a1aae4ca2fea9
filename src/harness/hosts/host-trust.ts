/**
 * `baton doctor` rows for the other hosts: whether Codex and Gemini CLI will actually run the hooks
 * `baton install` wrote into this project. Both skip an untrusted project's hooks silently
 * (docs/hosts.md), so a gate that looks installed may never run.
 */
import { dirname, join, sep } from 'node:path';
import type { Finding } from '../../doctor/checks.js';
import { CONFIG_FILE_MAX_BYTES, isReadRefusal, readFileBounded } from '../../fs/bounded-read.js';

const readText = (path: string): string | undefined => {
  try {
    return readFileBounded(path, CONFIG_FILE_MAX_BYTES, path, "a host's settings are a few KB; fix the file");
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return undefined;
  }
};

const readJson = (path: string): unknown => {
  try {
    return JSON.parse(readText(path) ?? '');
  } catch {
    return undefined;
  }
};

const hasBatonHooks = (path: string, host: string): boolean =>
  new RegExp(`\\bhook \\w+ --host ${host}\\b`).test(readText(path) ?? '');

/**
 * `[projects."<root>"]` with `trust_level = "trusted"` in $CODEX_HOME/config.toml. Read with a
 * pattern rather than a TOML parser: one key of one table, and a dependency for it would load on
 * every `baton doctor`.
 */
function codexTrusts(configToml: string, root: string): boolean {
  const lines = configToml.split('\n');
  const header = lines.findIndex((line) => line.trim() === `[projects.${JSON.stringify(root)}]`);
  if (header < 0) return false;
  for (const line of lines.slice(header + 1)) {
    if (line.trim().startsWith('[')) return false;
    if (/^\s*trust_level\s*=\s*"trusted"\s*$/.test(line)) return true;
  }
  return false;
}

/** Gemini's trustedFolders.json: TRUST_FOLDER covers the folder and below, TRUST_PARENT its parent and below. */
function geminiTrusts(folders: unknown, root: string): boolean {
  if (!folders || typeof folders !== 'object') return false;
  const within = (dir: string) => root === dir || root.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  return Object.entries(folders as Record<string, unknown>).some(
    ([path, level]) =>
      (level === 'TRUST_FOLDER' && within(path)) || (level === 'TRUST_PARENT' && within(dirname(path))),
  );
}

export function hostTrustRows(root: string, env: Record<string, string | undefined>): Finding[] {
  const rows: Finding[] = [];
  const home = env.HOME ?? '';
  if (hasBatonHooks(join(root, '.codex', 'hooks.json'), 'codex')) {
    const config = join(env.CODEX_HOME || join(home, '.codex'), 'config.toml');
    const trusted = codexTrusts(readText(config) ?? '', root);
    rows.push({
      ok: trusted,
      check: `codex: project trusted in ${config} (else Codex ignores .codex/hooks.json)`,
      fix: trusted
        ? '—'
        : `run \`codex exec --trust\` here once, or add [projects.${JSON.stringify(root)}] trust_level = "trusted" to ${config} (docs/hosts.md)`,
    });
    rows.push({
      ok: true,
      warn: true,
      check: 'codex: hook trust is not visible to baton',
      fix: 'accept the hooks when Codex asks, or run `codex exec --dangerously-bypass-hook-trust`; untrusted hooks are skipped silently (docs/hosts.md)',
    });
  }
  if (hasBatonHooks(join(root, '.gemini', 'settings.json'), 'gemini')) {
    const folders = join(home, '.gemini', 'trustedFolders.json');
    const trusted = env.GEMINI_CLI_TRUST_WORKSPACE === 'true' || geminiTrusts(readJson(folders), root);
    rows.push({
      ok: trusted,
      check: `gemini: folder trusted (${folders} or GEMINI_CLI_TRUST_WORKSPACE=true)`,
      fix: trusted
        ? '—'
        : 'trust the folder when Gemini CLI asks, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs; an untrusted folder ignores .gemini/settings.json (docs/hosts.md)',
    });
    const selected = [join(root, '.gemini', 'settings.json'), join(home, '.gemini', 'settings.json')]
      .map(
        (path) =>
          (readJson(path) as { security?: { auth?: { selectedType?: unknown } } } | undefined)?.security?.auth
            ?.selectedType,
      )
      .find((type) => typeof type === 'string');
    rows.push({
      ok: selected !== undefined,
      check: `gemini: auth type chosen${selected ? ` (${selected})` : ''}`,
      fix: 'choose one in Gemini CLI, or set security.auth.selectedType (e.g. "gemini-api-key" with GEMINI_API_KEY) in ~/.gemini/settings.json; headless runs exit 41 without it (docs/hosts.md)',
    });
  }
  return rows;
}
