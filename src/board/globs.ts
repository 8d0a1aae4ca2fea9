/**
 * Whether two path globs can match one path. Globs have the gates' bash `case` semantics
 * (project/policy/glob.ts): `*` matches any run of characters including `/`, `?` one character,
 * `[...]` one character of a set. Deciding it exactly keeps two tasks on `src/*.ts` and
 * `src/*.js` in one parallel set, where comparing literal prefixes would refuse them.
 */

type Token = { kind: 'star' } | { kind: 'one'; test: (c: string) => boolean; literal?: string };

function tokens(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      while (glob[i + 1] === '*') i++;
      out.push({ kind: 'star' });
    } else if (c === '?') {
      out.push({ kind: 'one', test: () => true });
    } else if (c === '[' && glob.indexOf(']', i + 2) > 0) {
      const end = glob.indexOf(']', i + 2);
      const body = glob.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      const re = new RegExp(
        `^[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replaceAll('\\', '\\\\')}]$`,
        's',
      );
      out.push({ kind: 'one', test: (ch) => re.test(ch) });
      i = end;
    } else {
      out.push({ kind: 'one', test: (ch) => ch === c, literal: c });
    }
  }
  return out;
}

/** Two one-character tokens can match one character (a set against a set is assumed to). */
function meet(a: Token & { kind: 'one' }, b: Token & { kind: 'one' }): boolean {
  if (a.literal !== undefined) return b.test(a.literal);
  if (b.literal !== undefined) return a.test(b.literal);
  return true;
}

/** True when some path matches both globs. Bounded: at most |a| x |b| states, each visited once. */
export function globsOverlap(a: string, b: string): boolean {
  const x = tokens(a);
  const y = tokens(b);
  const seen = new Set<number>();
  const stack: [number, number][] = [[0, 0]];
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const state = i * (y.length + 1) + j;
    if (seen.has(state)) continue;
    seen.add(state);
    if (i === x.length && j === y.length) return true;
    const p = x[i];
    const q = y[j];
    // A star matches nothing more (move past it), or also takes the other side's next token.
    if (p?.kind === 'star') {
      stack.push([i + 1, j]);
      if (q) stack.push([i, j + 1]);
    }
    if (q?.kind === 'star') {
      stack.push([i, j + 1]);
      if (p) stack.push([i + 1, j]);
    }
    if (p?.kind === 'one' && q?.kind === 'one' && meet(p, q)) stack.push([i + 1, j + 1]);
  }
  return false;
}
