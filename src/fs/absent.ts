import { statSync } from 'node:fs';

/**
 * Whether nothing is at `path`, told by one stat that throws nothing for a missing path (no
 * exception and stack per call). Not existsSync: it says "missing" for a path it cannot look at (a
 * link loop, a folder this user may not enter), so a rule's document that cannot be read would
 * pass as absent (a work board taken for none lifts every claim) where its read fails closed.
 */
export function absent(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}
