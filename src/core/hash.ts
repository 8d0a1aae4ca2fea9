/**
 * Non-cryptographic hashing and unique names, without node:crypto: loading that module costs a
 * hook process ~2 ms, and nothing here needs secrecy. The hash only ties a history entry to the
 * exact text it committed (an accidental 64-bit collision is not a practical concern); names only
 * need to differ between concurrent writers.
 */

/** FNV-1a over UTF-16 code units, two 32-bit lanes with different offsets: 16 hex characters. */
export function fnv64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193 ^ 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** 32-bit FNV-1a: a short stable fingerprint (8 hex characters). */
export function fnv32(text: string): string {
  return fnv64(text).slice(0, 8);
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
