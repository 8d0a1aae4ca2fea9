/**
 * Character tests the write path makes on every run, without a regular expression: V8 compiles a
 * regex on its first use (~50 K instructions each, a few of them in every CLI command), and these
 * are single-character classes that a loop says as plainly.
 */

/** 0-9. */
export const isAsciiDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** A-Z or a-z. */
export const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** Whether `text` holds a C0 control character or DEL (U+0000-U+001F, U+007F). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Whether `text` is only 0-9, at least one of them. */
export function isAsciiDigits(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) if (!isAsciiDigit(text.charCodeAt(i))) return false;
  return true;
}
