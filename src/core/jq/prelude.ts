/**
 * jq 1.6's own definitions (src/builtin.jq of the 1.6 release), verbatim where supported.
 * Running the very same definitions is what makes quirks such as `limit(0; f)` yielding one
 * value, or `.[] |= empty` deleting every other element, come out exactly as in 1.6.
 * Each entry is parsed only when a program refers to it (what assignment desugars to, _assign and
 * _modify, at build time: scripts/compile-jq-prelude.mjs). What 1.6 defines by recursion but runs
 * as a loop (repeat, recurse, while, until, range/3, and the recursion of gsub and splits) is
 * evaluated by loops.ts, whose comments quote the 1.6 definitions.
 */
const DEFS = String.raw`
def error: error(.);
def map(f): [.[] | f];
def select(f): if f then . else empty end;
def sort_by(f): _sort_by_impl(map([f]));
def group_by(f): _group_by_impl(map([f]));
def unique: group_by(.) | map(.[0]);
def unique_by(f): group_by(f) | map(.[0]);
def max_by(f): _max_by_impl(map([f]));
def min_by(f): _min_by_impl(map([f]));
def add: reduce .[] as $x (null; . + $x);
def del(f): delpaths([path(f)]);
def _assign(paths; value): value as $v | reduce path(paths) as $p (.; setpath($p; $v));
def _modify(paths; update): reduce path(paths) as $p (.; label $out | (setpath($p; getpath($p) | update) | ., break $out), delpaths([$p]));
def map_values(f): .[] |= f;
def recurse: recurse(.[]?);
def recurse_down: recurse;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: map({(.key // .Key // .name // .Name): (if has("value") then .value else .Value end)}) | add | .//={};
def with_entries(f): to_entries | map(f) | from_entries;
def reverse: [.[length - 1 - range(0;length)]];
def indices($i): if type == "array" and ($i|type) == "array" then .[$i] elif type == "array" then .[[$i]] elif type == "string" and ($i|type) == "string" then _strindices($i) else .[$i] end;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def paths: path(recurse(if (type|. == "array" or . == "object") then .[] else empty end))|select(length > 0);
def paths(node_filter): . as $dot|paths|select(. as $p|$dot|getpath($p)|node_filter);
def any(generator; condition): [label $out | foreach generator as $i (false; if . then break $out elif $i | condition then true else . end; if . then . else empty end)] | length == 1;
def any(condition): any(.[]; condition);
def any: any(.);
def all(generator; condition): [label $out | foreach generator as $i (true; if .|not then break $out elif $i | condition then . else false end; if .|not then . else empty end)] | length == 0;
def all(condition): all(.[]; condition);
def all: all(.);
def isfinite: type == "number" and (isinfinite | not);
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: arrays, objects;
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def normals: select(isnormal);
def finites: select(isfinite);
def strings: select(type == "string");
def nulls: select(type == "null");
def values: select(. != null);
def scalars: select(. == null or . == true or . == false or type == "number" or type == "string");
def scalars_or_empty: select(. == null or . == true or . == false or type == "number" or type == "string" or ((type=="array" or type=="object") and length==0));
def leaf_paths: paths(scalars);
def join($x): reduce .[] as $i (null; (if .==null then "" else .+$x end) + ($i | if type=="boolean" or type=="number" then tostring else .//"" end)) // "";
def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x-1)) else . + [$i] end);
def flatten($x): if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
def flatten: _flatten(-1);
def range($x): range(0;$x);
def range($init; $upto; $by): _range_by($init; $upto; $by);
def limit($n; exp): if $n < 0 then exp else label $out | foreach exp as $item ($n; .-1; $item, if . <= 0 then break $out else empty end) end;
def isempty(g): 0 == ((label $go | g | (1, break $go)) // 0);
def first(g): label $out | g | ., break $out;
def last(g): reduce g as $item (null; $item);
def nth($n; g): if $n < 0 then error("nth doesn't support negative indices") else last(limit($n + 1; g)) end;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y end;
def combinations(n): . as $dot | [range(n) | $dot] | combinations;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | length as $length | reduce range(0; $max) as $j ([]; . + [reduce range(0;$length) as $i ([]; . + [ $in[$i][$j] ] )] ) end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def ascii_downcase: explode | map( if 65 <= . and . <= 90 then . + 32  else . end) | implode;
def ascii_upcase: explode | map( if 97 <= . and . <= 122 then . - 32  else . end) | implode;
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0]|length) > $n then setpath([0];$input[0][$n:]) else empty end;
def fromstream(i): foreach i as $item ([null,false,null,false]; if ($item[0]|length) == 0 then [null,false,.[2],.[3]] elif ($item|length) == 1 and ($item[0]|length) < 2 then [null,false,.[0],.[1]] else . end | . as $state | if ($item|length) > 1 and ($item[0]|length) > 0 then [.[0]|setpath(($item|.[0]); ($item|.[1])), true, $state[2], $state[3]] else . end; if ($item[0]|length) == 1 and ($item|length == 1) and .[3] then .[2] else empty end, if ($item[0]|length) == 0 then $item[1] else empty end);
def tostream: {string:true,number:true,boolean:true,null:true} as $leaf_types | . as $dot | if $leaf_types[$dot|type] or length==0 then [[],$dot] else keys_unsorted as $keys | $keys[-1] as $last| ((# for each key
 $keys[] | . as $key | $dot[$key] | . as $dot | tostream|.[0]|=[$key]+.), [[$last]]) end;
def match(re; mode): _match_impl(re; mode; false)|.[];
def match($val): ($val|type) as $vt | if $vt == "string" then match($val; null) elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1]) elif $vt == "array" and ($val | length) > 0 then match($val[0]; null) else error( $vt + " not a string or array") end;
def test(re; mode): _match_impl(re; mode; true);
def test($val): ($val|type) as $vt | if $vt == "string" then test($val; null) elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1]) elif $vt == "array" and ($val | length) > 0 then test($val[0]; null) else error( $vt + " not a string or array") end;
def capture(re; mods): match(re; mods) | reduce ( .captures | .[] | select(.name != null) | { (.name) : .string } ) as $pair ({}; . + $pair);
def capture($val): ($val|type) as $vt | if $vt == "string" then capture($val; null) elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1]) elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null) else error( $vt + " not a string or array") end;
def scan(re): match(re; "g") |  if (.captures|length > 0) then [ .captures | .[] | .string ] else .string end ;
def _nwise(a; $n): if a|length <= $n then a else a[0:$n] , _nwise(a[$n:]; $n) end;
def _nwise($n): _nwise(.; $n);
def splits($re; flags): . as $s | [ match($re; "g" + flags) | (.offset, .offset + .length) ] | [0] + . +[$s|length] | _cut($s);
def splits($re): splits($re; null);
def split($re; flags): [ splits($re; flags) ];
def sub($re; s): . as $in | [match($re)] | if length == 0 then $in else .[0] | . as $r | reduce ( $r | .captures | .[] | select(.name != null) | { (.name) : .string } ) as $pair ({}; . + $pair) | $in[0:$r.offset] + s + $in[$r.offset+$r.length:] end ;
def sub($re; s; flags): def subg: [explode[] | select(. != 103)] | implode; def sub1(fla; gs): def mysub: . as $in | [match($re; fla)] | if length == 0 then $in else .[0] as $edit | ($edit | .offset + .length) as $len | reduce ( $edit | .captures | .[] | select(.name != null) | { (.name) : .string } ) as $pair ({}; . + $pair) | $in[0:$edit.offset] + s + $in[$len:] end ; if gs then _sub_global($re; s; fla) else mysub end ; (flags | index("g")) as $gs | (flags | if $gs then subg else . end) as $fla | sub1($fla; $gs);
def gsub($re; s; flags): sub($re; s; flags + "g");
def gsub($re; s): sub($re; s; "g");
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row|idx_expr| if type != "string" then tojson else . end] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): reduce (first(select(. == s)) | true) as $v (false; if . or $v then true else false end);
def IN(src; s): reduce (src|IN(s)) as $v (false; if . or $v then true else false end);
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ")|mktime;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
`;

/** Builtins jq 1.7 and 1.8 added, with the definitions of the release that introduced them. */
const LATER_DEFS = String.raw`
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def scan($re; $flags): match($re; "g" + $flags) | if (.captures|length > 0) then [ .captures | .[] | .string ] else .string end;
def toarray: if type == "array" then . else [.] end;
`;

// Indexed on first use, not at import: most programs (`.slug`, `.counter += 1`) name no prelude
// function, and the split and a regex per definition cost every CLI process ~0.5 ms.
let index: Map<string, string> | undefined;

export function preludeSource(key: string): string | undefined {
  if (!index) {
    index = new Map();
    for (const chunk of (DEFS + LATER_DEFS).split(/\n(?=def )/)) {
      const src = chunk.trim();
      const m = /^def ([A-Za-z_][A-Za-z_0-9]*)(?:\(([^)]*)\))?:/.exec(src);
      if (!m) continue;
      const arity = m[2] === undefined ? 0 : m[2].split(';').length;
      index.set(`${m[1]}/${arity}`, src);
    }
  }
  return index.get(key);
}

/**
 * Why each jq 1.6 builtin baton does not run is refused, and what to write instead. Builtins
 * missing here are refused with the generic reason (not evaluated exactly as jq 1.6 does).
 */
const ARG = 'pass the value in with --arg name value (or --argjson for JSON)';
const REASONS: Record<string, string> = {
  'env/0': `the environment is not visible to expressions, so a write replays the same from its history; ${ARG}, e.g. --arg home "$HOME"`,
  $ENV: `the environment is not visible to expressions, so a write replays the same from its history; ${ARG}, e.g. --arg home "$HOME"`,
  'input/0': `an expression has exactly one input, the document; ${ARG}`,
  'inputs/0': `an expression has exactly one input, the document; ${ARG}`,
  'input_filename/0': `an expression has exactly one input, the document, and no file name; ${ARG}`,
  'input_line_number/0': 'an expression has exactly one input, the document, and no line numbers',
  'halt/0': 'an expression cannot end the process; use error("why") to stop an update without writing',
  'halt_error/0': 'an expression cannot end the process; use error("why") to stop an update without writing',
  'halt_error/1': 'an expression cannot end the process; use error("why") to stop an update without writing',
  'stderr/0': 'an expression cannot write to stderr; its results are the only output',
  'localtime/0': 'baton works in UTC only, so results do not depend on the machine; use gmtime',
  'strflocaltime/1': 'baton works in UTC only, so results do not depend on the machine; use strftime',
  'modulemeta/0': 'modules are not supported; define the functions in the expression with def',
  'get_search_list/0': 'modules are not supported; define the functions in the expression with def',
  'get_jq_origin/0': 'there is no jq executable or program file behind an expression',
  'get_prog_origin/0': 'there is no jq executable or program file behind an expression',
};

/** The refusal for a jq 1.6 builtin (or `$ENV`) baton does not run. */
export function refusalReason(key: string): string {
  const why = REASONS[key];
  return why ? `${key}: ${why}` : `builtin ${key}`;
}

/** Every builtin name/arity jq 1.6 defines (`jq -n '[builtins]'`); others are "not defined". */
const JQ16_BUILTINS = `input_line_number/0 input_filename/0 now/0 localtime/0 gmtime/0 mktime/0
strflocaltime/1 strftime/1 strptime/1 stderr/0 debug/0 modulemeta/0 get_jq_origin/0 get_prog_origin/0
get_search_list/0 halt_error/1 halt/0 env/0 format/1 error/1 max/0 min/0 sort/0 nan/0 infinite/0 isnormal/0
isnan/0 isinfinite/0 type/0 utf8bytelength/0 length/0 contains/1 has/1 delpaths/1 getpath/1 setpath/2
implode/0 explode/0 split/1 rtrimstr/1 ltrimstr/1 endswith/1 startswith/1 keys_unsorted/0 keys/0 tostring/0
tonumber/0 fromjson/0 tojson/0 lgamma_r/0 modf/0 frexp/0 ldexp/2 trunc/0 significand/0 scalbln/2 scalb/2
round/0 rint/0 nexttoward/2 nextafter/2 nearbyint/0 logb/0 log1p/0 lgamma/0 gamma/0 fmod/2 fmin/2 fmax/2
fma/3 fdim/2 fabs/0 expm1/0 exp10/0 erfc/0 erf/0 drem/2 copysign/2 ceil/0 yn/2 jn/2 y1/0 y0/0 tgamma/0
tanh/0 tan/0 sqrt/0 sinh/0 sin/0 remainder/2 pow/2 log2/0 log10/0 log/0 j1/0 j0/0 hypot/2 floor/0 exp2/0
exp/0 cosh/0 cos/0 cbrt/0 atanh/0 atan2/2 atan/0 asinh/0 asin/0 acosh/0 acos/0 empty/0 not/0 path/1
range/2 halt_error/0 error/0 map/1 select/1 sort_by/1 group_by/1 unique/0 unique_by/1 max_by/1 min_by/1
add/0 del/1 map_values/1 recurse/1 recurse/2 recurse/0 recurse_down/0 to_entries/0 from_entries/0
with_entries/1 reverse/0 indices/1 index/1 rindex/1 paths/0 paths/1 any/2 any/1 any/0 all/2 all/1 all/0
isfinite/0 arrays/0 objects/0 iterables/0 booleans/0 numbers/0 normals/0 finites/0 strings/0 nulls/0
values/0 scalars/0 scalars_or_empty/0 leaf_paths/0 join/1 flatten/1 flatten/0 range/1 fromdateiso8601/0
todateiso8601/0 fromdate/0 todate/0 match/2 match/1 test/2 test/1 capture/2 capture/1 scan/1 splits/2
splits/1 split/2 sub/2 sub/3 gsub/3 gsub/2 range/3 while/2 until/2 limit/2 isempty/1 first/1 last/1
nth/2 first/0 last/0 nth/1 combinations/0 combinations/1 transpose/0 in/1 inside/1 input/0 repeat/1
inputs/0 ascii_downcase/0 ascii_upcase/0 truncate_stream/1 fromstream/1 tostream/0 bsearch/1 walk/1
INDEX/2 INDEX/1 JOIN/2 JOIN/3 JOIN/4 IN/1 IN/2 pow10/0 builtins/0`;
let jq16: Set<string> | undefined;

/** Is `key` (name/arity) a jq 1.6 builtin? Asked only of a name nothing else defines. */
export function isJq16Builtin(key: string): boolean {
  return (jq16 ??= new Set(JQ16_BUILTINS.split(/\s+/))).has(key);
}
