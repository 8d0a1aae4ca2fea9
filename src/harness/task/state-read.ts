/**
 * Every read of a file the harness keeps (the wave file, a scratchpad, the prompt audit log, a
 * PreCompact snapshot, a mutation report): bounded, and only of a regular file, so one made huge
 * by hand or a FIFO planted at its name ends in one line naming it (a gated event then fails
 * closed) instead of filling memory or hanging the hook.
 */
import { readFileBounded, STATE_FILE_MAX_BYTES } from '../../fs/bounded-read.js';

export function readStateText(path: string, maxBytes = STATE_FILE_MAX_BYTES): string {
  return readFileBounded(path, maxBytes, `${path}`, 'baton writes it small; shorten it, or move it aside');
}
