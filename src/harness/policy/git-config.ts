/**
 * Git configuration that makes a reading verb run a program or write a file: `git status` runs
 * `core.fsmonitor` and clean filters, `git diff`/`log`/`show`/`blame` run external diff drivers,
 * textconv and pagers, signatures run gpg, `trace2.*` targets are files git writes on every run.
 * An agent can write a repository's `.git/config` (or `~/.gitconfig`) in a phase where that is
 * allowed, so before a git command is proved harmless its configuration is read. Configuration is
 * data with hundreds of harmless keys, so here the keys that name a program or a file are listed
 * (git-config(1)); the command itself is still judged by an allow-list (harmless.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isReadRefusal, readBytesBounded, readFileBounded } from '../../fs/bounded-read.js';

const RISKY: RegExp[] = [
  /^core\.(pager|fsmonitor)$/,
  /^pager\./,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^gpg\.(.+\.)?program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^log\.showsignature$/,
  /^trace2\./,
];

/** Values of risky keys that run nothing beyond what git does unconfigured. */
function benign(key: string, value: string): boolean {
  if (/^(core\.fsmonitor|pager\..+|log\.showsignature)$/.test(key) && /^(false|no|off|0|)$/i.test(value)) return true;
  // git's own fsmonitor daemon; less (git's default pager) or cat, with flags.
  if (key === 'core.fsmonitor' && /^(true|yes|on|1)$/i.test(value)) return true;
  if (/^(core\.pager|pager\..+)$/.test(key) && /^(less|more|cat)(\s+-[A-Za-z0-9]+)*$/.test(value)) return true;
  // Git LFS's filter as `git lfs install` writes it.
  if (/^filter\.lfs\.(clean|smudge|process)$/.test(key))
    return /^git-lfs (clean -- %f|smudge -- %f|filter-process)$/.test(value);
  return false;
}

const MAX_FILES = 64;
const MAX_BYTES = 1_000_000;
/** An index of ~100 000 files; larger ones are not read in a hook. */
const MAX_INDEX = 16_000_000;
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);

/** undefined when no configuration git would read in `dirs` names a program or file; else why. */
export function gitConfigRisk(dirs: string[], home: string): string | undefined {
  const files = new Set<string>([join(home, '.gitconfig'), join(home, '.config', 'git', 'config'), '/etc/gitconfig']);
  for (const dir of dirs) {
    const found = repositoryConfigs(dir);
    if (typeof found === 'string') return found;
    for (const file of found) files.add(file);
  }
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (seen.size > MAX_FILES) return `more than ${MAX_FILES} git configuration files to read`;
    const text = readSmall(file);
    if (text === undefined) continue;
    if (text === null) return `git configuration ${file} is larger than baton reads`;
    for (const { key, value } of entries(text)) {
      if (key === 'include.path' || /^includeif\..+\.path$/.test(key)) {
        const path = value.startsWith('~/') ? join(home, value.slice(2)) : value;
        queue.push(isAbsolute(path) ? path : resolve(dirname(file), path));
        continue;
      }
      if (!RISKY.some((re) => re.test(key)) || benign(key, value)) continue;
      return `git configuration ${file} sets ${key}, which runs a program or writes a file`;
    }
  }
  return undefined;
}

/**
 * The configuration files of the repository `dir` is in: its own, its worktree's, and those of
 * its submodules (`git status` runs git in each): the ones under `.git/modules` and every
 * checked-out gitlink of the index, which an embedded repository added with `git add` is.
 */
function repositoryConfigs(dir: string, depth = 0): string[] | string {
  let at = resolve(dir);
  for (;;) {
    const gitDir = gitDirOf(join(at, '.git'), at);
    if (gitDir) {
      // `git status` and `git add` write the index in the git dir: a `.git` file may name a
      // worktree's or a submodule's, not any folder (`gitdir: tests` would put it among the tests).
      if (!/\/\.git(\/(worktrees|modules)\/[^/]+(\/modules\/[^/]+)*)?$/.test(gitDir))
        return `${join(at, '.git')} points git at ${gitDir}, which is not a repository's .git folder`;
      const common = commonDir(gitDir);
      const out = [join(common, 'config'), join(gitDir, 'config.worktree'), join(common, 'config.worktree')];
      modules(join(common, 'modules'), out, 0);
      const links = gitlinks(join(gitDir, 'index'));
      if (typeof links === 'string') return links;
      for (const link of links) {
        const sub = join(at, link);
        if (!gitDirOf(join(sub, '.git'), sub)) continue;
        if (depth >= 3) return `submodules nested more than 3 deep in ${at}`;
        const more = repositoryConfigs(sub, depth + 1);
        if (typeof more === 'string') return more;
        out.push(...more);
        if (out.length > MAX_FILES) return `more than ${MAX_FILES} git configuration files to read`;
      }
      return out;
    }
    const parent = dirname(at);
    if (parent === at) return [];
    at = parent;
  }
}

/** The paths of the gitlinks (mode 160000) in a git index (versions 2 to 4); a string when it cannot tell. */
function gitlinks(indexFile: string): string[] | string {
  let data: Buffer;
  try {
    data = readBytesBounded(indexFile, MAX_INDEX, { what: `git index ${indexFile}`, fix: '' });
  } catch (error) {
    if (isReadRefusal(error))
      return `git index ${indexFile}, which baton does not read (too large, or not a regular file)`;
    return [];
  }
  const cannot = `git index ${indexFile}, which baton cannot read`;
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return cannot;
  // A gitlink's mode is 0o160000, stored as 00 00 e0 00: an index without those bytes has none
  // (a native search; parsing every entry of a large index costs a hook milliseconds).
  if (data.indexOf(GITLINK_MODE, 12) < 0) return [];
  const version = data.readUInt32BE(4);
  const count = data.readUInt32BE(8);
  if (version < 2 || version > 4) return cannot;
  // SHA-1 entries are 62 bytes before the path; SHA-256 ones 74. Try SHA-1, then SHA-256.
  for (const hash of [20, 32]) {
    const links = readEntries(data, version, count, 40 + hash + 2);
    if (links) return links;
  }
  return cannot;
}

function readEntries(data: Buffer, version: number, count: number, fixed: number): string[] | undefined {
  const links: string[] = [];
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    if (at + fixed > data.length) return undefined;
    const mode = data.readUInt32BE(at + 24);
    const flags = data.readUInt16BE(at + fixed - 2);
    let start = at + fixed + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let path: string;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      do {
        if (start >= data.length) return undefined;
        byte = data[start++] as number;
        strip = (strip << 7) | (byte & 0x7f);
        if (byte & 0x80) strip++;
      } while (byte & 0x80);
      const end = data.indexOf(0, start);
      if (end < 0 || strip > previous.length) return undefined;
      path = previous.slice(0, previous.length - strip) + data.toString('utf8', start, end);
      at = end + 1;
    } else {
      const end = data.indexOf(0, start);
      if (end < 0) return undefined;
      path = data.toString('utf8', start, end);
      at += (end - at + 8) & ~7;
    }
    previous = path;
    if (mode >>> 12 === 0o16) links.push(path);
  }
  // What follows the entries: extensions (4-letter signatures) and the checksum; a split index
  // keeps entries in another file.
  if (at + 20 > data.length) return undefined;
  for (let ext = at; ext + 8 <= data.length - 20;) {
    const signature = data.toString('latin1', ext, ext + 4);
    if (!/^[A-Za-z]{4}$/.test(signature)) return undefined;
    if (signature === 'link') return undefined;
    ext += 8 + data.readUInt32BE(ext + 4);
  }
  return links;
}

function gitDirOf(dotGit: string, at: string): string | undefined {
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(readFileBounded(dotGit, MAX_BYTES, dotGit, ''))?.[1];
    return line ? resolve(at, line) : undefined;
  } catch {
    return undefined;
  }
}

function commonDir(gitDir: string): string {
  const text = readSmall(join(gitDir, 'commondir'));
  return text ? resolve(gitDir, text.trim()) : gitDir;
}

/** Submodules' git dirs (`git status` runs git inside each), a few levels deep. */
function modules(dir: string, out: string[], depth: number): void {
  if (depth > 3 || out.length > MAX_FILES) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    out.push(join(dir, name, 'config'));
    modules(join(dir, name, 'modules'), out, depth + 1);
  }
}

/** The file's text; undefined when it does not exist, null when it is too large to read. */
function readSmall(file: string): string | undefined | null {
  try {
    return readFileBounded(file, MAX_BYTES, file, '');
  } catch (error) {
    return isReadRefusal(error) ? null : undefined;
  }
}

/**
 * `section.subsection.key` (section and key lower-cased, as git compares them) and value of each
 * entry. Quoting inside values is left as is: only the key decides, and a value only when false.
 */
function entries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let section = '';
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  for (const raw of lines) {
    let line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const [name, ...dotted] = (header[1] as string).split('.');
      const sub = header[2] ?? (dotted.length ? dotted.join('.') : undefined);
      section = `${(name as string).toLowerCase()}${sub !== undefined ? `.${sub}` : ''}`;
      line = line.slice(header[0].length).trim();
      if (line === '') continue;
    }
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$/.exec(line);
    if (!entry) continue;
    const value = entry[2] ? configValue(entry[3] as string) : 'true';
    out.push({ key: `${section}.${(entry[1] as string).toLowerCase()}`, value });
  }
  return out;
}

/** A value as git reads it: quotes removed, `#`/`;` outside quotes start a comment, escapes decoded. */
function configValue(text: string): string {
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') quoted = !quoted;
    else if (c === '\\') {
      const next = text.charAt(++i);
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '' : next;
    } else if (!quoted && (c === '#' || c === ';')) break;
    else value += c;
  }
  return value.trim();
}
