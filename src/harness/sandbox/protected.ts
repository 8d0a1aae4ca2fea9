/**
 * What the OS sandbox holds read-only during one shell call: the paths of every rule that applies
 * to shell commands and whose `when` matches now (a phase-scoped rule, such as eneo's GREEN test
 * freeze), baton's own state (state-files.ts), the host's settings and hook scripts a command
 * could use to turn the hooks off, the shell start-up files the host's next shell would run
 * outside the sandbox, and baton's own installation. Rules without `when` (eneo's env, lockfile
 * and ratchet rules) stay with the parser: package managers legitimately rewrite lockfiles.
 */
import { lstatSync, readdirSync, realpathSync, type Dirent, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../../project/config.js';
import { expandPatterns, patternToFind, ruleTest, type FindTest, type PathTest } from '../../project/policy/glob.js';
import { NOT_PROJECT } from '../policy/real-path.js';
import { stateRule } from '../../project/policy/state-files.js';
import { StateReader } from '../../project/policy/state.js';
import type { SharedDocuments } from '../../project/policy/state.js';
import type { HookInput } from '../hooks/types.js';
import { noEntry } from '../../fs/absent.js';
import { systemFix } from '../../core/errors.js';

/** How many entries of the project the hook lists before it gives up (then: the parser's strict mode). */
export const MAX_SANDBOX_ENTRIES = 50_000;

export const HOST_RULE = 'host-settings';

export interface ScanRule {
  id: string;
  /** GNU find tests: any of `paths`, and any of `also` (when given), and none of `unless`. */
  paths: FindTest[];
  also: FindTest[];
  unless: FindTest[];
  /** A `-path` every match passes (the literal start its paths share), tested first: most entries stop there. */
  guard?: string;
}

export interface ProtectedSet {
  rules: ScanRule[];
  /** Existing entries bound read-only (a folder with everything in it). */
  binds: string[];
  /** Existing entries that match but cannot be bound (symlinks): not new, so never moved aside. */
  known: string[];
  /** Paths outside the project that must not appear during the call. */
  outside: string[];
}

/** The phase-scoped rules that apply to this shell call now; none means nothing is wrapped. */
export function phaseRules(
  input: HookInput,
  config: HarnessConfig,
  root: string,
  shared?: SharedDocuments,
): RuleConfig[] {
  const state = new StateReader(config, root, shared);
  return config.rules.filter(
    (rule) =>
      (rule.on === 'bash' || rule.on === 'both') &&
      (!rule.tools || rule.tools.includes(input.toolName)) &&
      rule.paths !== undefined &&
      rule.command === undefined &&
      rule.when !== undefined &&
      state.matches(rule.when),
  );
}

/** The host's files in the project that decide which hooks run and what they may run. */
export function hostRule(root: string): RuleConfig {
  const at = escapeRe(root);
  return {
    id: HOST_RULE,
    on: 'both',
    // Plain shapes (patternToFind): the scan tests them with find's cheap -path.
    paths: [
      `re:^${at}/\\.claude/settings\\.json$`,
      `re:^${at}/\\.claude/settings\\.local\\.json$`,
      `re:^${at}/\\.mcp\\.json$`,
      // baton's own configuration: the rules, and the phase they read, come from it.
      `re:^${at}/baton\\.config\\.json$`,
      ...['.claude/hooks', '.codex', '.gemini', '.cursor'].map((dir) => `re:^${at}/${escapeRe(dir)}(/|$)`),
    ],
  };
}

/**
 * The set for `rules` (from phaseRules), or why it cannot be built (a pattern find cannot
 * express, a project too large to list): the caller then falls back to the parser's strict mode.
 */
export function protectedSet(
  rules: RuleConfig[],
  config: HarnessConfig,
  root: string,
  home: string,
  packageDir: string | undefined,
  /** false where the sandbox matches patterns itself (sandbox-exec): no listing to do. */
  list = true,
): ProtectedSet | string {
  const all = [...rules, stateRule(config, root), hostRule(root)];
  const scan: ScanRule[] = [];
  const tests: PathTest[] = [];
  for (const rule of all) {
    const find = (patterns: readonly string[] | undefined) =>
      expandPatterns(patterns ?? [], config.pathClasses).map((p) => [p, patternToFind(p)] as const);
    const parts = { paths: find(rule.paths), also: find(rule.also), unless: find(rule.unless) };
    const bad = [...parts.paths, ...parts.also, ...parts.unless].find(([, tests]) => tests === undefined);
    if (bad)
      return `rule ${rule.id}'s pattern ${bad[0]} uses regular-expression syntax the sandbox's scan cannot express`;
    const only = (list: (readonly [string, FindTest[] | undefined])[]) => list.flatMap(([, tests]) => tests ?? []);
    const entry: ScanRule = {
      id: rule.id,
      paths: only(parts.paths),
      also: only(parts.also),
      unless: only(parts.unless),
    };
    const guard = sharedStart(entry.paths);
    if (guard.length > root.length + 1) entry.guard = `${guard}*`;
    scan.push(entry);
    tests.push(ruleTest(rule, config.pathClasses));
  }
  const set: ProtectedSet = { rules: scan, binds: [], known: [], outside: [] };
  const unlisted = list ? listProject(root, (abs) => tests.some((test) => test(abs)), set) : undefined;
  if (unlisted) return unlisted;
  const linked = list ? bindOtherNames(root, set) : undefined;
  if (linked) return linked;
  outsideFiles(home, packageDir, set);
  return set;
}

/**
 * A protected file with a second hard link can be changed through the other name, which a bind of
 * the protected name does not cover (a link made in the call itself fails: links do not cross
 * mounts). Other names inside the project are bound too; a name baton cannot find (outside the
 * project) makes the call unsandboxable, so the caller falls back to the harmless-only proof.
 */
function bindOtherNames(root: string, set: ProtectedSet): string | undefined {
  const inside = set.binds.filter((path) => path === root || path.startsWith(`${root}/`));
  const linked = new Map<string, { path: string; links: number; seen: number }>();
  const note = (path: string, stats: Stats) => {
    if (stats.isFile() && stats.nlink > 1)
      linked.set(`${stats.dev}:${stats.ino}`, { path, links: stats.nlink, seen: 0 });
  };
  let budget = MAX_SANDBOX_ENTRIES;
  for (const path of inside) {
    const stats = lstatOrUndefined(path);
    if (stats?.isDirectory()) {
      if (!walkFiles(path, note, () => --budget >= 0))
        return `the protected folder ${path} has more than ${MAX_SANDBOX_ENTRIES} entries to check for hard links`;
    } else if (stats) note(path, stats);
  }
  if (linked.size === 0) return undefined;
  const covered = (path: string) => inside.some((bind) => path === bind || path.startsWith(`${bind}/`));
  budget = 4 * MAX_SANDBOX_ENTRIES;
  const walked = walkFiles(
    root,
    (path, stats) => {
      const entry = linked.get(`${stats.dev}:${stats.ino}`);
      if (!entry) return;
      entry.seen++;
      if (!covered(path)) set.binds.push(path);
    },
    () => --budget >= 0,
  );
  if (!walked) return `the project is too large to look for the other names of protected files with hard links`;
  for (const entry of linked.values())
    if (entry.seen < entry.links)
      return `${entry.path} has ${entry.links} hard links and ${entry.links - entry.seen} of them outside the project, through which a command could change it; remove them (find / -xdev -samefile '${entry.path}')`;
  return undefined;
}

/** Every regular file under `dir` (not through symlinks), until `more` says stop: false then. */
function walkFiles(dir: string, file: (path: string, stats: Stats) => void, more: () => boolean): boolean {
  const queue = [dir];
  while (queue.length > 0) {
    const at = queue.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!more()) return false;
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory()) queue.push(path);
      else if (entry.isFile()) {
        const stats = lstatOrUndefined(path);
        if (stats) file(path, stats);
      }
    }
  }
  return true;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Every entry a rule matches, walked from the root (not into node_modules, .git or a symlink). A
 * folder that matches, or whose every possible entry would (`*\/tests/*` and `tests/`), is bound
 * whole: a new file in it then fails at once instead of being moved aside after the call.
 * Undefined when listed, else why not.
 */
function listProject(root: string, matches: PathTest, set: ProtectedSet): string | undefined {
  const whole = (dir: string) => matches(`${dir}/\u0001`) && matches(`${dir}/\u0001/\u0001.\u0001`);
  if (whole(root)) {
    set.binds.push(root);
    return undefined;
  }
  const queue = [root];
  let count = 0;
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // Gone since its parent was listed: nothing in it to bind. A folder this user may not list
      // hides what is in it, which would not be bound, and the command, run as the same user, may
      // open it again (chmod) and change a protected file inside.
      if (noEntry(error)) continue;
      return `the folder ${dir} cannot be listed (${systemFix(error) ?? String(error)}), so the protected files in it cannot be bound`;
    }
    count += entries.length;
    if (count > MAX_SANDBOX_ENTRIES) return `the project has more than ${MAX_SANDBOX_ENTRIES} entries to list`;
    for (const entry of entries) {
      if (NOT_PROJECT.has(entry.name)) continue;
      const abs = `${dir}/${entry.name}`;
      const folder = entry.isDirectory();
      if (matches(abs)) (entry.isSymbolicLink() ? set.known : set.binds).push(abs);
      else if (folder && whole(abs)) set.binds.push(abs);
      else if (folder) queue.push(abs);
    }
  }
  return undefined;
}

/** Shell start-up files in the home folder that a host's shell (a login shell) runs. */
const HOME_FILES = [
  '.claude',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshenv',
  '.zprofile',
  '.zshrc',
  '.zlogin',
];
const SYSTEM_FILES = ['/etc/profile', '/etc/profile.d', '/etc/bash.bashrc', '/etc/bashrc', '/etc/environment'];
const PROGRAMS = [process.execPath, '/bin/bash', '/bin/sh'];
/** What an installed baton (npm package or Claude Code plugin folder) is made of. */
const PACKAGE_ENTRIES = ['package.json', 'bin', 'dist', 'compat', 'schemas', 'plugin', 'sandbox', 'hooks', 'skills'];

function outsideFiles(home: string, packageDir: string | undefined, set: ProtectedSet): void {
  const add = (path: string, mustNotAppear: boolean) => {
    let link: boolean;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      if (mustNotAppear) set.outside.push(path);
      return;
    }
    try {
      // A start-up file kept in a dotfiles folder: what the shell reads is the target.
      set.binds.push(link ? realpathSync(path) : path);
    } catch {
      // a dangling link: nothing to protect, and not new
    }
  };
  if (home) for (const name of HOME_FILES) add(join(home, name), true);
  for (const path of SYSTEM_FILES) add(path, false);
  // The programs every later hook and wrapped call runs (node, bash, sh): a command running as
  // root could otherwise replace one and have the next hook run its copy.
  for (const program of PROGRAMS) {
    try {
      add(dirname(realpathSync(program)), false);
    } catch {
      // not on this machine
    }
  }
  if (packageDir) for (const name of PACKAGE_ENTRIES) add(join(packageDir, name), false);
}

/** The literal start all of these `-path` globs share ('' when one is another kind of test). */
function sharedStart(tests: FindTest[]): string {
  let shared: string | undefined;
  for (const { test, text } of tests) {
    if (test !== '-path') return '';
    const literal = /^[^*?[\\]*/.exec(text)?.[0] ?? '';
    shared = shared === undefined ? literal : commonPrefix(shared, literal);
  }
  return shared ?? '';
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
