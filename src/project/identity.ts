/**
 * Who is really running a command, when the host's OS sandbox says so: inside each sandboxed shell
 * call the sandbox binds `<root>/.baton/sandbox/identity.json` read-only, naming the agent (its
 * id, or `main`) and the session. Outside a sandbox the file is absent or empty. A writer claimed
 * with --as or BATON_WRITER is checked against it for owned fields (core/prepare-write.ts), so a
 * subagent cannot write as the orchestrator by saying so.
 */
import { join } from 'node:path';
import { BatonError } from '../core/errors.js';
import { absent, noEntry, unreadable } from '../fs/absent.js';
import { isReadRefusal, readFileBounded, SMALL_FILE_MAX_BYTES } from '../fs/bounded-read.js';

export const IDENTITY_FILE = '.baton/sandbox/identity.json';

export interface Identity {
  agent: string;
  session?: string;
}

export function readIdentity(root: string): Identity | undefined {
  const file = join(root, IDENTITY_FILE);
  // Read on every write; outside a sandbox the file is absent, and a failed read's exception (with
  // its stack) cost more than the whole rest of a PostgreSQL commit's client work (docs/benchmarks.md).
  // Not existsSync: a file that cannot be looked at (a link loop, a folder this user may not enter)
  // is not "outside a sandbox", or a claimed writer would go unchecked.
  if (absent(file)) return undefined;
  let text: string;
  try {
    text = readFileBounded(file, SMALL_FILE_MAX_BYTES, file, 'it holds one agent name; rewrite it');
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    if (noEntry(error)) return undefined;
    throw unreadable('the sandbox identity file', file, error);
  }
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const { agent, session } = (value ?? {}) as { agent?: unknown; session?: unknown };
  // A file that is there but says nothing usable must not leave the claim unchecked.
  if (typeof agent !== 'string' || agent === '')
    throw new BatonError(
      'forbidden',
      `${IDENTITY_FILE} does not name the agent running this command; nothing was written: the sandbox writes it, check its setup`,
    );
  return typeof session === 'string' && session !== '' ? { agent, session } : { agent };
}
