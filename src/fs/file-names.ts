/**
 * File names that fit: every name the engine makes (temp files, sidecar files) stays within the
 * NAME_MAX of common file systems, a long name shortened to a readable prefix and a hash.
 */
import { twoLaneFnv1a } from '../core/hash.js';

/** The longest file name, in bytes, that ext4, XFS, btrfs, APFS and NTFS accept. */
export const NAME_MAX = 255;

/**
 * A name for auxiliary files of a long document name: a readable prefix of the name (cut at a
 * UTF-8 character boundary) and a hash of the whole name, 150 + 17 bytes.
 */
export function shortName(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  let cut = Math.min(bytes.length, 150);
  while (cut > 0 && cut < bytes.length && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return `${bytes.subarray(0, cut).toString('utf8')}~${twoLaneFnv1a(name)}`;
}

/** The temp file of an atomic write to `target`: `.NAME.PID.HEX.tmp`, NAME shortened only when the whole would not fit. */
export function tempName(target: string, pid: number, hex: string): string {
  const plain = `.${target}.${pid}.${hex}.tmp`;
  // A UTF-16 unit is at most 3 bytes of UTF-8, so a short name needs no count: every write names
  // a temp file, and Buffer.byteLength is a Node function it would compile for that alone.
  return plain.length * 3 <= NAME_MAX || Buffer.byteLength(plain) <= NAME_MAX
    ? plain
    : `.${shortName(target)}.${pid}.${hex}.tmp`;
}

/** Whether a temp file's NAME part (see TEMP_FILE_PATTERN) stands for `target`. */
export function isTempOf(namePart: string, target: string): boolean {
  return namePart === target || namePart === shortName(target);
}
