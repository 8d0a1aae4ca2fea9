/**
 * The macOS form of the sandbox: a sandbox-exec (Seatbelt) profile that allows everything but
 * writing the protected set. Seatbelt matches paths by regular expression at every write, so the
 * patterns also stop files that do not exist yet, and no scan is needed after the call.
 * `file-write*` covers creating, writing, deleting, renaming, linking into, chmod and xattrs.
 * Generated and unit-tested here; it has not been run on a Mac by baton's tests (docs/gates.md).
 */
import { globToEre, type FindTest } from '../../project/policy/glob.js';
import type { ProtectedSet } from './protected.js';

export function seatbeltProfile(set: Pick<ProtectedSet, 'rules' | 'binds' | 'outside'>): string {
  const filters: string[] = [];
  for (const rule of set.rules) {
    const any = (list: FindTest[]) =>
      list.length === 1 ? regex(list[0] as FindTest) : `(require-any ${list.map(regex).join(' ')})`;
    const parts = [any(rule.paths)];
    if (rule.also.length > 0) parts.push(any(rule.also));
    if (rule.unless.length > 0) parts.push(`(require-not ${any(rule.unless)})`);
    filters.push(parts.length === 1 ? (parts[0] as string) : `(require-all ${parts.join(' ')})`);
  }
  for (const path of set.binds) filters.push(`(subpath ${quote(path)})`);
  for (const path of set.outside) filters.push(`(literal ${quote(path)})`);
  return ['(version 1)', '(allow default)', ...filters.map((f) => `(deny file-write* ${f})`)].join('\n');
}

function regex({ test, text }: FindTest): string {
  const ere = test === '-regex' ? text : test === '-name' ? `.*/${globToEre(text)}` : globToEre(text);
  return `(regex ${quote(`^(${ere})$`)})`;
}

function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}
