import { hasControlCharacter, isAsciiLetter } from '../core/ascii.js';
import { BatonError } from '../core/errors.js';

/**
 * The document keys every store accepts: a relative path that stays in the project and does not
 * name a sidecar. A `.baton/` file (metadata, history, a lock) is the engine's record of a
 * document, never a document itself: written as one, its schema and sealed fields could be
 * dropped, and owners and enums would stop. The file store also checks the key after symlinks.
 */
export const SIDECAR = '.baton';

export function checkDocumentKey(key: string): void {
  const parts = key.replaceAll('\\', '/').split('/');
  // A Windows drive (C:) is not relative either.
  const drive = key.charCodeAt(1) === 0x3a && isAsciiLetter(key.charCodeAt(0));
  if (key === '' || hasControlCharacter(key) || key.startsWith('/') || drive)
    throw new BatonError(
      'unsafe_path',
      `document key ${JSON.stringify(key)} is not a relative path inside the project; use a path like notes/todo.json`,
    );
  if (parts.includes('..'))
    throw new BatonError('unsafe_path', `document key ${key} escapes the project through '..'; use a path inside it`);
  if (parts.includes(SIDECAR)) throw sidecarRefusal(key);
}

export function sidecarRefusal(key: string): BatonError {
  return new BatonError(
    'unsafe_path',
    `${key} is in a ${SIDECAR}/ folder, baton's own record of a document (metadata, history, locks), never a document; name the document itself`,
  );
}
