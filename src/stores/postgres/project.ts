import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The project id that scopes documents in a shared database, when none is configured: the git
 * remote's URL, normalised so every clone and worktree of one repository agrees (over https or
 * ssh, with or without `.git` and credentials), else the absolute real path of the root. Never the
 * folder's name: unrelated projects called `app` must not share documents.
 */
export function defaultProjectId(root: string): string {
  const remote = spawnSync('git', ['config', '--get', 'remote.origin.url'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = remote.status === 0 ? remote.stdout.trim() : '';
  if (url !== '') return normaliseRemote(url);
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/**
 * `git@github.com:Org/app.git`, `ssh://git@github.com:22/Org/app`, `https://token@github.com/Org/app.git/`
 * all become `github.com/Org/app`; a local remote (`/srv/git/app.git`, `file:///srv/git/app`) its path.
 */
export function normaliseRemote(url: string): string {
  const trimmed = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(trimmed);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return `${(scp[1] as string).toLowerCase()}/${scp[2]}`;
  try {
    const parsed = new URL(trimmed);
    const path = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
    if (parsed.protocol === 'file:') return `/${path}`;
    return `${parsed.hostname.toLowerCase()}/${path}`;
  } catch {
    return trimmed;
  }
}
