/**
 * The key `baton serve` signs its hook answers with, so the shell client (plugin/lib/serve-client.bash)
 * believes an answer only from a server that holds it. serve.json sits in the project, where a
 * process confined to the project (an agent's sandbox, a container with the checkout mounted) can
 * rewrite it to name a server of its own that answers "allow"; the key sits outside the project, in
 * the user's state folder (`$XDG_STATE_HOME/baton/serve.key`, else `~/.local/state/baton/serve.key`),
 * mode 0600 in a 0700 folder, and is never sent to anyone: the client checks the answer's tag
 * against it and judges in process on any mismatch.
 *
 * The tag is SHA-256 over key, request target (which carries the client's fresh nonce), payload,
 * answer and key again, separated by the ASCII record separator: a shell client computes it with
 * one `sha256sum`, where HMAC would need a second tool. The key at both ends stops appending to a
 * known tag (length extension); the nonce stops replaying an answer recorded earlier (in a free
 * phase, say) for the same payload; the payload in it stops asking the real server about a harmless
 * call and passing its "allow" off for the gated one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../core/errors.js';
import { readFileBounded } from '../fs/bounded-read.js';

const RS = '\x1e';
const KEY_MAX_BYTES = 1024;

export function answerKeyPath(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'baton', 'serve.key');
}

/** The key, made on first use; one that others could read or write is refused, naming the fix. */
export function answerKey(env: NodeJS.ProcessEnv): string {
  const file = answerKeyPath(env);
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  try {
    // 'wx': never through a planted link, never over another's key.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(file);
  if (!stat.isFile() || (stat.mode & 0o077) !== 0 || (process.getuid && stat.uid !== process.getuid()))
    throw new BatonError(
      'unsafe_path',
      `${file} must be a regular file of yours, mode 0600 (it signs baton serve's answers); remove it and start baton serve again`,
    );
  const key = readFileBounded(file, KEY_MAX_BYTES, file, 'remove it; baton serve writes a new one').trim();
  if (!/^[\w-]{32,512}$/.test(key))
    throw new BatonError('invalid', `${file} does not hold a key; remove it and start baton serve again`);
  return key;
}

/** The tag the shell client checks: hex SHA-256 of key RS target RS payload RS answer key LF. */
export function answerTag(key: string, target: string, payload: string, answer: string): string {
  return createHash('sha256').update(`${key}${RS}${target}${RS}${payload}${RS}${answer}${key}\n`).digest('hex');
}
