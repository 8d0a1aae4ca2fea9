/**
 * Builtins jq 1.6 defines by recursion but runs as loops (its tail calls do not grow its stack):
 * `repeat`, `recurse`, `while`, `until`, `range/3`, and the per-match recursion of `gsub` and
 * `splits`. This engine evaluates by continuation passing on the JS stack, where the same
 * definitions cost a few JS frames per level and overflow after a few thousand levels
 * (`[limit(3000; repeat(1))]`), so they run here as loops, with the outputs, in the order,
 * that the 1.6 definitions (prelude.ts) give.
 *
 * A tree-shaped recursion (`recurse(f)`, `while`, `until`: each level may have several
 * successors) is walked depth-first on an explicit stack. A level's successors are computed
 * before the first of them is followed; an error raised while computing them is raised where
 * 1.6 raises it, after the subtrees of the successors produced before it. The one difference:
 * a level with endless successors (`recurse(range(infinite))`) ends on the budget instead of
 * following the first one for ever.
 */
import type { Node } from './ast.js';
import { chargeValue, tick } from './budget.js';
import { Raised } from './jq-errors.js';
import type { Emit, Env, Path } from './evaluate.js';
import { ev, notPath } from './evaluate.js';
import { binop } from './ops.js';
import { getIndex } from './path-functions.js';
import { subSites } from './regex.js';
import type { Json, JsonObject } from './values.js';
import { compare, equals, isObject, objPut, truthy } from './values.js';

type Item = { k: 'emit'; v: Json; p: Path } | { k: 'node'; v: Json; p: Path } | { k: 'raise'; e: Raised };
type Expand = (v: Json, p: Path, out: Item[]) => void;

/** Depth-first over the tree `expand` describes, from `root`, on an explicit stack. */
function walk(root: Json, rootPath: Path, expand: Expand, emit: Emit): void {
  const frames: { items: Item[]; i: number }[] = [];
  const open = (v: Json, p: Path): void => {
    const items: Item[] = [];
    try {
      expand(v, p, items);
    } catch (e) {
      if (!(e instanceof Raised)) throw e;
      items.push({ k: 'raise', e });
    }
    frames.push({ items, i: 0 });
  };
  open(root, rootPath);
  while (frames.length > 0) {
    const top = frames[frames.length - 1] as { items: Item[]; i: number };
    if (top.i === top.items.length) {
      frames.pop();
      continue;
    }
    const item = top.items[top.i++] as Item;
    tick();
    if (item.k === 'emit') emit(item.v, item.p);
    else if (item.k === 'node') open(item.v, item.p);
    else throw item.e;
  }
}

const arg = (args: Node[], i: number): Node => args[i] as Node;

/** Evaluates a `$`-parameter's argument: a variable, so exactly one value. */
function value(n: Node, input: Json, env: Env): Json {
  let out: Json = null;
  ev(n, input, null, env, (v) => {
    out = v;
  });
  return out;
}

export type Loop = (args: Node[], input: Json, path: Path, env: Env, emit: Emit) => void;

export const LOOPS: Record<string, Loop> = {
  // def repeat(exp): def _repeat: exp, _repeat; _repeat;
  'repeat/1': (args, input, path, env, emit) => {
    for (;;) {
      tick();
      ev(arg(args, 0), input, path, env, emit);
    }
  },
  // def recurse(f): def r: ., (f | r); r;
  'recurse/1': (args, input, path, env, emit) =>
    walk(
      input,
      path,
      (v, p, out) => {
        out.push({ k: 'emit', v, p });
        ev(arg(args, 0), v, p, env, (c, cp) => out.push({ k: 'node', v: c, p: cp }));
      },
      emit,
    ),
  // def recurse(f; cond): def r: ., (f | select(cond) | r); r;
  'recurse/2': (args, input, path, env, emit) =>
    walk(
      input,
      path,
      (v, p, out) => {
        out.push({ k: 'emit', v, p });
        ev(arg(args, 0), v, p, env, (c, cp) =>
          ev(arg(args, 1), c, null, env, (ok) => {
            if (truthy(ok)) out.push({ k: 'node', v: c, p: cp });
          }),
        );
      },
      emit,
    ),
  // def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
  'while/2': (args, input, path, env, emit) =>
    walk(
      input,
      path,
      (v, p, out) =>
        ev(arg(args, 0), v, null, env, (ok) => {
          if (!truthy(ok)) return;
          out.push({ k: 'emit', v, p });
          ev(arg(args, 1), v, p, env, (u, up) => out.push({ k: 'node', v: u, p: up }));
        }),
      emit,
    ),
  // def until(cond; next): def _until: if cond then . else (next|_until) end; _until;
  'until/2': (args, input, path, env, emit) =>
    walk(
      input,
      path,
      (v, p, out) =>
        ev(arg(args, 0), v, null, env, (ok) => {
          if (truthy(ok)) out.push({ k: 'emit', v, p });
          else ev(arg(args, 1), v, p, env, (u, up) => out.push({ k: 'node', v: u, p: up }));
        }),
      emit,
    ),
  // def range($init; $upto; $by): def _range: if ($by > 0 and . < $upto) or ($by < 0 and . > $upto)
  //   then ., ((.+$by)|_range) else . end; if $by == 0 then $init else $init|_range end | select(<same test>);
  '_range_by/3': (args, input, path, env, emit) => {
    notPath(path, 'range');
    const upto = value(arg(args, 1), input, env);
    const by = value(arg(args, 2), input, env);
    if (equals(by, 0)) return;
    const up = compare(by, 0) > 0;
    const down = compare(by, 0) < 0;
    for (let x = value(arg(args, 0), input, env); ; x = binop('+', x, by)) {
      tick();
      if (!((up && compare(x, upto) < 0) || (down && compare(x, upto) > 0))) return;
      emit(x, null);
    }
  },
  // sub($re; s; flags) with "g" (prelude.ts): each site's replacement is `s` on its named
  // captures; the text is site 0's, site 1's, ..., then the tail. 1.6 recurses once per site and
  // loops over its `s` inside the recursion, so the first site's outputs vary fastest, and an
  // error of a site's `s` is raised once its outputs were first all used.
  '_sub_global/3': (args, input, path, env, emit) => {
    notPath(path, 'sub');
    const { sites, tail } = subSites(input, value(arg(args, 0), input, env), value(arg(args, 2), input, env));
    type Piece = { values: string[]; error?: Raised };
    const pieces = new Array<Piece>(sites.length);
    for (let k = sites.length - 1; k >= 0; k--) {
      const site = sites[k] as (typeof sites)[number];
      const piece: { values: string[]; error?: Raised } = { values: [] };
      try {
        ev(arg(args, 1), site.captures, null, env, (sv) => {
          piece.values.push(binop('+', site.before, sv) as string);
        });
      } catch (e) {
        if (!(e instanceof Raised)) throw e;
        piece.error = e;
      }
      if (piece.values.length === 0) {
        if (piece.error) throw piece.error;
        return;
      }
      pieces[k] = piece;
    }
    const at = new Array<number>(sites.length).fill(0);
    for (;;) {
      let text = '';
      for (let k = 0; k < pieces.length; k++) text += (pieces[k] as { values: string[] }).values[at[k] as number];
      text += tail;
      chargeValue(text);
      emit(text, null);
      for (let k = 0; ; k++) {
        if (k === pieces.length) return;
        const piece = pieces[k] as { values: string[]; error?: Raised };
        at[k] = (at[k] as number) + 1;
        if ((at[k] as number) < piece.values.length) break;
        if (piece.error) throw piece.error;
        at[k] = 0;
      }
    }
  },
  // def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key
  //   ( {}; . + { ($key): ($in[$key] | walk(f)) } ) | f elif type == "array" then map( walk(f) ) | f else f end;
  // Run by hand, a few JS frames per level of the document instead of the few dozen that the
  // definition's reduce, object and pipe cost, so it walks documents as deep as maxDepth's ceiling.
  // Only the outermost `| f` emits downstream; the inner levels' outputs are collected, as the
  // definition's reduce and map collect them, so errors and breaks surface where 1.6 raises them.
  'walk/1': (args, input, path, env, emit) => {
    const f = arg(args, 0);
    const rebuild = (v: Json): Json => {
      tick();
      if (Array.isArray(v)) {
        const out: Json[] = [];
        for (const x of v) for (const o of walked(x)) out.push(o);
        chargeValue(out);
        return out;
      }
      let state: Json = {};
      for (const key of Object.keys(v as JsonObject)) {
        const cur = state;
        state = null; // jq 1.6: an update producing no output leaves null behind
        for (const o of walked((v as JsonObject)[key] as Json)) {
          const entry: JsonObject = {};
          objPut(entry, key, o);
          state = binop('+', cur, entry);
        }
      }
      return state;
    };
    const walked = (v: Json): Json[] => {
      const out: Json[] = [];
      ev(f, isObject(v) || Array.isArray(v) ? rebuild(v) : v, null, env, (o) => {
        out.push(o);
      });
      return out;
    };
    if (!isObject(input) && !Array.isArray(input)) return ev(f, input, path, env, emit);
    notPath(path, 'walk of an array or object');
    ev(f, rebuild(input), null, env, emit);
  },
  // `_nwise(2) | $s[.[0]:.[1]]` on splits' `[0, start, end, ..., $s|length]`.
  '_cut/1': (args, input, path, env, emit) => {
    notPath(path, 'splits');
    const s = value(arg(args, 0), input, env);
    if (!Array.isArray(input)) throw new Raised('splits: internal bounds are not an array');
    const cut = typeof s === 'string' && ascending(input) ? stringCutter(s) : null;
    for (let i = 0; i < input.length; i += 2) {
      tick();
      const from = input[i] as Json;
      const to = input[i + 1] ?? null;
      const piece = cut ? cut(from as number, to as number) : getIndex(s, { start: from, end: to });
      chargeValue(piece);
      emit(piece, null);
    }
  },
};

/** Whether `bounds` are whole numbers from 0 up, never decreasing: splits' own bounds are. */
function ascending(bounds: Json[]): boolean {
  let last = 0;
  for (const b of bounds) {
    if (typeof b !== 'number' || !Number.isInteger(b) || b < last) return false;
    last = b;
  }
  return true;
}

/**
 * `s[from:to]` in code points for ascending bounds (at most the length), each found from the
 * last: one pass over `s` in all, where a slice on its own counts from the start every time.
 */
function stringCutter(s: string): (from: number, to: number) => string {
  let pos = 0;
  let cp = 0;
  const utf16 = (target: number): number => {
    for (; cp < target && pos < s.length; cp++) {
      const c = s.charCodeAt(pos);
      pos += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    return pos;
  };
  return (from, to) => {
    const start = utf16(from);
    return s.slice(start, utf16(to));
  };
}
