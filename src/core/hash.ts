/**
 * Non-cryptographic hashing and unique names, without node:crypto: loading that module costs a
 * hook process ~2 ms, and nothing here needs secrecy. The hash only ties a history entry to the
 * exact text it committed (an accidental 64-bit collision is not a practical concern); names only
 * need to differ between concurrent writers.
 */

/**
 * Two 32-bit FNV-1a lanes over UTF-16 code units, side by side: 16 hex characters. Not FNV-64
 * (no 64-bit arithmetic, which costs BigInt here): the first lane is plain FNV-1a 32, the second
 * starts from another offset with another multiplier. History entries store this hash, so it must
 * not change.
 */
export function twoLaneFnv1a(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193 ^ 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** FNV-1a 32 over UTF-16 code units (the first lane): a short stable fingerprint, 8 hex characters. */
export function fnv1a32(text: string): string {
  return twoLaneFnv1a(text).slice(0, 8);
}

/** `length` random hex characters; pid and time make clashes between processes implausible. */
export function uniqueHex(length: number): string {
  let out = '';
  while (out.length < length)
    out += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}
