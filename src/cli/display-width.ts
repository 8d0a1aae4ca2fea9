/**
 * Terminal columns a string takes, for aligning tables: East Asian wide and fullwidth characters
 * and emoji take two, combining marks and zero-width characters none. `padEnd` counts UTF-16 code
 * units instead, which misaligns a row holding any of those.
 */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
// Each character is tested alone (for...of): a variation selector in the class is matched as itself.
// eslint-disable-next-line no-misleading-character-class
const ZERO = /[\p{M}\u200B-\u200F\u2060\uFE00-\uFE0F\uFEFF]/u;

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += ZERO.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
  return width;
}
