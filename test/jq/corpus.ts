import type { Case } from './jq-binary.js';

export const STATE = JSON.stringify({
  slug: 'demo', phase: '2-plan', next_hint: '/eneo-plan', wave: 1, wave_total: 3,
  active_agents: ['a1', 'a2', 'a3'], wave_status: { '1': 'done' },
  phases: { '3-impl': { evidence: ['e1'] }, '1-spec': { done: true } },
  counter: 4, a: 1, last_pr: null, x: { y: 1 }, tags: ['b', 'a', 'é', '😀'], n: -2.5,
});
const SIMPLE = '{"a":1,"b":[1,2]}';

type Entry = string | [string, string?, Case['args']?];

const arg = (name: string, value: string, json = false) => ({ name, value, json });

// The task-state callers baton itself issues; these must all be answered, exactly.
export const MUST_WORK: Case[] = ([
  ['.next_hint = "/eneo-ship"'],
  ['.last_pr = $__pr | .next_hint = "/eneo-recap"', STATE, [arg('__pr', '5678', true)]],
  ['.wave = $__w | .wave_total = $__t | .active_agents = $__a | .wave_status = ((.wave_status // {}) | .["1"] = "in_progress") | .next_hint = null', STATE,
    [arg('__w', '2', true), arg('__t', '3', true), arg('__a', '["x","y"]', true)]],
  ['.wave_status = ((.wave_status // {}) | .[($__wave|tostring)] = "done") | .active_agents = []', STATE, [arg('__wave', '2', true)]],
  ['.wave_status = ((.wave_status // {}) | .[($__wave|tostring)] = "done") | .active_agents = []', '{}', [arg('__wave', '1', true)]],
  ['.a += 1 | .b = 2'],
  ['.counter += 1'],
  ['.phases["3-impl"].evidence += [$p]', STATE, [arg('p', 'tests pass')]],
  ['.phases["4-new"].evidence += [$p]', STATE, [arg('p', 'x')]],
  ['del(.x)'],
  ['to_entries | map(select(.value != null)) | from_entries'],
  ['[.a,.b] | @tsv', '{"a":"x","b":"y\\tz"}'],
  ['"\\(.slug) \\(.phase // "-")"'],
  ['"\\(.slug) \\(.phase // "-")"', '{"slug":"s"}'],
  ['.active_agents |= (index($t) as $i | if $i == null then . else .[:$i] + .[$i+1:] end)', STATE, [arg('t', 'a2')]],
  ['.active_agents |= (index($t) as $i | if $i == null then . else .[:$i] + .[$i+1:] end)', STATE, [arg('t', 'zz')]],
  ['.x = (1,2)'],
  ['empty'],
  ['.[0]', '[5,6]'],
  ['keys'],
  ['.a.b.c = 1', '{}'],
] as [string, string?, Case['args']?][]).map(([expr, input, args]) => ({ expr, input: input ?? STATE, ...(args ? { args } : {}) }));

const ENTRIES: Entry[] = [
  '.', '..', '[..]', '.slug', '."slug"', '.["slug"]', '.phases["3-impl"]', '.phases."3-impl".evidence[0]',
  '.active_agents[]', '.active_agents[]?', '.slug?', '.slug[]?', '.active_agents[1:]', '.active_agents[:-1]',
  '.active_agents[-1]', '.active_agents[10]', '.active_agents[1.5]', '.active_agents[1.2:2.7]', '.slug[1:3]',
  '.tags[2:]', '[.[]?]', '.wave, .wave_total', '(.wave, .wave_total) | . * 2', '[.wave, .counter] | add',
  '.missing.deeper', '.missing[0]', '.slug.x', '.slug.x?', 'try .slug.x catch "c"', '.[.slug]?',
  '{a: .wave, b: .counter}', '{slug, phase}', '{"x y": 1, (.slug): 2}', '{(.tags[]): 1}', '{a: (1,2), b: (3,4)}',
  '{$__loc__}', '$__loc__', '{a: .wave | . + 1}', '{a: 1 + 2}', '[.active_agents[] | {name: .}]',
  '"\\(.wave)/\\(.wave_total)"', '"\\(1,2)\\(3,4)"', '"x\\("y\\("z")")"', '@text "w\\(.wave)"', '@json "v=\\(.slug)"',
  '@base64 "\\(.slug)"', '@uri "q=\\(.phase)"', '@sh "echo \\(.slug)"', '@html "<\\("<&>\'\\"")>"', '@csv "\\(.active_agents)"',
  '.active_agents | @csv', '.active_agents | @tsv', '.active_agents | @sh', '.tags | @json', '.slug | @base64',
  '.slug | @base64 | @base64d', '.tags | map(@uri)', '[1,"a\\"b",null,true,1.5] | @csv', '[1,"a\\tb",null,true] | @tsv',
  '.x | @sh', '@foo', '.tags | @html',
  '1 + 2 * 3 - 4 / 2 % 3', '1 - 1 - 1', '2 / 2 / 2', '-(1 + 2)', '-.wave', '-.slug', '1 / 0', '0 / 0', '.wave / 0',
  '5 % 0', '.wave % 0', '5.5 % 2', '-5 % 3', '5 % -3', '.n % 2', '"ab" * 3', '"ab" * 0', '"ab" * 0.5', '2 * "x"',
  '{"a":{"b":1}} * {"a":{"c":2}}', '{"a":1} + {"b":2} + {"a":3}', '[1,2,3,1] - [1]', 'null + 1', '.missing + .wave',
  '"a,b,c" / ","', '"abc" / ""', '[1] + null', '{} - {}', '"a" - "a"', '[] + {}', '.slug + 1',
  '.wave == 1', '.wave != 1', '.wave < 2', '1 == 1.0', '"a" < "b"', '[] < {}', 'null < false', 'true < 0', '0 < ""',
  '"" < []', '{"a":1} < {"a":2}', '{"b":1} < {"a":1,"b":1}', '[1,2] < [1,2,3]', '(1,2) == (1,2)', '1 == 1 == 1',
  'nan < 1', '1 < nan', 'nan == nan', '[nan] | sort', 'infinite', '-infinite', 'nan', '[infinite, -infinite, nan]',
  '1e1000', '[0.1, 1e-7, 1e21, 1.5e300, 100000000000000000000, 3.0, -0, 0.0001, 123456789012, 1.23456789012345678]',
  '[1000000, 10000000, 1e15, 1e16, 1e17, 1.5e16, 1.5e17, 0.00001, 0.0001234, 5e-324, 0.1e2, 3.14159265358979323846]',
  '0.1 + 0.2', '1 / 3', '-0', '0 * -1', '[-0] | tojson', '-0 | tostring', '1e17 | tostring', '[1e-7] | @csv',
  '.wave and .counter', '.last_pr or false', '(true, false) and (true, false)', '(true, false) or (true, false)',
  'not', '.last_pr | not', '[true, null, 0] | map(not)',
  '.last_pr // "none"', '(false, null, 1) // 2', '(false, null) // (3, 4)', 'empty // 5', '(1, 2) // 3',
  'error("x") // 1', '.slug.x // "d"', '.missing // .slug',
  'if .wave then "t" else "f" end', 'if .last_pr then 1 elif .wave then 2 else 3 end', 'if (true, false) then 1 else 2 end',
  'if empty then 1 else 2 end', 'if . then 1 end', '[.active_agents[] | if . == "a2" then "two" else . end]',
  'try error("x") catch .', 'try error({"a":1}) catch .a', 'try (1, error("x"), 3) catch .', '[.[] | try tostring]',
  'try error catch .', 'error("boom")', 'error', 'error(null)', '[1, error(null), 2]', 'try error(null) catch "c"',
  '(try (1,2) catch "caught") | if . == 1 then error("boom") else . end', '[((1,2)?) | if . == 1 then error("b") else . end]',
  '[.[] | .wave?]', '.wave?', '[..?]', '.slug | try .x', 'try .slug.x catch "c"', '[.active_agents[] | .x?]',
  '[first(((1,2)?), 3)]', '[first(try (1,2) catch "c")]', 'try (try error("x") catch error("y")) catch .',
  '.wave as $w | .counter + $w', '. as {wave: $w, slug: $s} | [$w, $s]', '. as {$wave} | $wave',
  '.active_agents as [$a, $b] | [$b, $a]', '. as [$a] | $a', '. as {phases: {"3-impl": {evidence: [$e]}}} | $e',
  '(1,2) as $x | (3,4) as $y | [$x, $y]', '1 as $x | 2 as $x | $x', '. as {$a: $x} | [$a, $x]', '$undefined',
  'reduce .active_agents[] as $a (0; . + 1)', 'reduce range(5) as $x (0; . + $x)', 'reduce empty as $x (0; . + 1)',
  'reduce (1,2) as $x (0, 10; . + $x)', 'reduce (1,2) as $x (0; empty)', 'reduce .tags[] as [$x] (0; . + 1)',
  'foreach (1,2,3) as $x (0; . + $x)', 'foreach (1,2,3) as $x (0; . + $x; [$x, .])', '[foreach range(5) as $x (0; . + 1; select(. % 2 == 0))]',
  'foreach (1,2) as $x (0; empty; .)',
  'def f: . + 1; .wave | f', 'def f(g): [g, g]; f(1, 2)', 'def f($a; $b): $a + $b; f(1; 2)', 'def f(a; $b): a + $b + b; f(1; 2)',
  'def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac', 'def f: def g: 3; g * 2; f', 'def f(x): x * 2; f(1, 2)',
  'def f: 1; def g: f; def f: 2; g', 'def f(x): x; def f: 0; [f, f(1)]', 'def f($x): $x + x; f(1, 2)', '1 + def f: 2; f',
  'def f($a; $b): [$a, $b]; [f(1,2; 3,4)]', 'def f(a; b): [a, b]; [f(1,2; 3,4)]', 'def r: if . < 3 then ., (. + 1 | r) else . end; [0 | r]',
  'label $out | 1, 2, break $out', '[label $a | label $b | 1, break $b, 2], 3', 'label $f | (1, 2) | if . == 2 then break $f else . end',
  'break $x', 'try (label $f | error("x")) catch .',
  '.[] |= empty', '[1,2,3] | .[] |= empty', '.active_agents[] |= ascii_upcase', '.wave |= . + 1', '.x.y |= . * 10',
  '.missing |= 3', '.missing.deep += 2', '.counter -= 1', '.counter *= 3', '.counter /= 2', '.counter %= 3', '.n %= 2',
  '.last_pr //= 7', '.slug //= "x"', '.active_agents += ["a4"]', '.active_agents -= ["a1"]', '.x *= {"z": 2}',
  '.active_agents[5] = "z"', '.active_agents[-1] = "z"', '.active_agents[-9] = "z"', '.active_agents[1:] = ["q"]',
  '.active_agents[1:] |= map(. + "!")', '.active_agents[1:] = "q"', '.slug[1:] = "x"', '.a = (1, 2) | .b = (3, 4)',
  '.a = empty', '.a |= empty', '.a += empty', '.a |= (. + 1, . + 2)', '(.a, .b) = 9', '(.a, .b) |= . + 1',
  '.a = .wave', '.b = (.a + 1) | .c = .b * 2', '.. = 1', '.. |= (if type == "number" then . + 1 else . end)',
  '.wave_status["2"] = "x"', '.new = {} | .new["7"] = 1 | .new.z = 2', '.new = {} | .new.z = 2 | .new["7"] = 1',
  '.phases |= with_entries(.value.visited = true)', '.[0] = 1', '.active_agents[.wave] = "set"', '.wave as $w | .x.y = $w',
  '.a.b = 1', 'getpath(["a"]) = 3', '.active_agents |= sort', '.tags |= sort', '.active_agents |= reverse',
  'del(.slug, .phase)', 'del(.active_agents[0, 2])', 'del(.active_agents[])', 'del(.active_agents[-1])', 'del(.active_agents[1:])',
  'del(.missing)', 'del(.)', 'del(..)', 'del(.phases[] | select(.done))', 'del(.slug.x)', 'del(.last_pr.x)',
  'delpaths([["x","y"],["a"]])', 'delpaths([[]])', 'delpaths([["slug", 0]])', 'delpaths([[0]])',
  'to_entries', 'from_entries', 'with_entries(.value |= tostring)', 'with_entries(select(.value | type == "number"))',
  '[{"key":"a","value":1},{"k":"b","v":2}] | from_entries', '[{"name":"a"},{"Key":"b","Value":2}] | from_entries',
  '[{"key":1,"value":2}] | from_entries', '[{"key":null,"value":3}] | from_entries', '[] | from_entries',
  'path(.a)', '[path(..)]', '[paths]', '[leaf_paths]', '[paths(type == "number")]', 'path(.active_agents[0])',
  '[path(.active_agents[])]', 'path(.a | select(. == 1))', 'path(if .a then .a else .b end)', 'path(.last_pr // .wave)',
  'path(first(.a, .b))', 'path(.a?)', 'path(getpath(["x","y"]))', 'path(.active_agents[1:])', 'path(1)', 'path(.a | 1)',
  'path(empty)', 'path(.slug | tostring)', 'getpath(["phases","3-impl","evidence",0])', 'getpath(["nope", 0, "x"])',
  'getpath(["slug", "x"])', '[getpath(["a"], ["wave"])]', 'setpath(["x", "y"]; 5)', 'setpath([]; 5)', 'setpath(["a", 1.5]; 1)',
  'setpath("a"; 1)', 'getpath("a")', 'paths(..)', '[paths(..)]',
];

export const HANDPICKED: Case[] = [
  ...MUST_WORK,
  ...ENTRIES.map((e): Case => {
    const [expr, input, args] = typeof e === 'string' ? [e, undefined, undefined] : e;
    return { expr, input: input ?? STATE, ...(args ? { args } : {}) };
  }),
];
export { SIMPLE };
