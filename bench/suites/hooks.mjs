// Hook rows: one PreToolUse process that allows (the common case), one that denies, and a hook
// for an event the profile does not handle, each against a bash+jq script making the same
// decision the way the original Eneo phase gate did (read stdin, jq the path, read the mirror).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GATE = `#!/usr/bin/env bash
# Reference: the Eneo phase gate in bash+jq.
input=$(cat)
file=$(jq -r '.tool_input.file_path // .tool_input.path // empty' <<<"$input")
[[ -z $file ]] && exit 0
phase=$(tr -d '[:space:]' < "$BATON_ROOT/.claude/state/phase" 2>/dev/null || echo FREE)
slug=$(jq -r '.slug // "<slug>"' "$BATON_ROOT/.claude/state/current-task.json" 2>/dev/null)
if [[ $phase == GREEN ]]; then
  case "$file" in
    */tests/*|*_test.py|*/test_*.py|*.test.ts|*.test.tsx|*.spec.ts|*.spec.tsx|*/__tests__/*)
      printf '%s\\n' "✗ Blocked: attempted to edit test file during GREEN phase." "  Fix: run '/eneo-start $slug --phase red'" >&2
      exit 2 ;;
  esac
fi
exit 0
`;
const FIREWALL = `#!/usr/bin/env bash
# Reference: the Eneo bash firewall in bash+jq: the words after a write operator.
input=$(cat)
cmd=$(jq -r '.tool_input.command // empty' <<<"$input")
[[ -z $cmd ]] && exit 0
phase=$(tr -d '[:space:]' < "$BATON_ROOT/.claude/state/phase" 2>/dev/null || echo FREE)
[[ $phase == GREEN ]] || exit 0
while IFS= read -r target; do
  case "$target" in
    */tests/*|tests/*|*_test.py|*/test_*.py|*.test.ts|*.spec.ts|*/__tests__/*)
      echo "✗ Blocked: bash modification of a test file during GREEN." >&2
      exit 2 ;;
  esac
done < <(grep -oE '(>>?|tee|sed -i)[[:space:]]*[^[:space:];|&]+' <<<"$cmd" | sed -E 's/^(>>?|tee|sed -i)[[:space:]]*//')
exit 0
`;
const IGNORE = `#!/usr/bin/env bash
# Reference: a hook for an event it does not handle (reads stdin, exits).
cat >/dev/null
exit 0
`;

export default async function hooks(lib) {
  const { dir, env } = lib.greenProject('baton-bench-hooks-');
  const node = process.execPath;
  const gate = join(dir, 'gate.sh');
  const ignore = join(dir, 'ignore.sh');
  const firewall = join(dir, 'firewall.sh');
  writeFileSync(firewall, FIREWALL, { mode: 0o755 });
  writeFileSync(gate, GATE, { mode: 0o755 });
  writeFileSync(ignore, IGNORE, { mode: 0o755 });
  const payload = (path) => lib.writePayload(dir, path);
  const allow = payload('backend/src/app.py');
  const deny = payload('backend/tests/test_app.py');
  const check = (input, want) => {
    const r = spawnSync(node, [lib.BATON, 'hook', 'PreToolUse'], { cwd: dir, env, input });
    if (/deny/.test(r.stdout) !== want) throw new Error(`baton hook did not ${want ? 'deny' : 'allow'}: ${r.stdout}`);
  };
  const shell = (command) =>
    JSON.stringify({
      session_id: 's',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      cwd: dir,
      tool_input: { command },
    });
  // Both read by the parser; the denied one writes a test file through cd, a variable and >|.
  const bashAllow = shell('cd src && npm test > log.txt 2>&1 && git commit -m "steering committee"');
  const bashDeny = shell('D=tests; cd backend && echo x > $D/test_app.py');
  check(allow, false);
  check(deny, true);
  check(bashAllow, false);
  check(bashDeny, true);
  const time = (argv, input) => lib.timeProcess(argv, { cwd: dir, env, input });
  return [
    {
      name: 'hook PreToolUse Write, allowed (GREEN, src file)',
      baton: time([node, lib.BATON, 'hook', 'PreToolUse'], allow),
      reference: time(['bash', gate], allow),
      unit: 'ms',
      note: 'median of 20 processes; ref = bash+jq gate',
    },
    {
      name: 'hook PreToolUse Write, denied (GREEN, test file)',
      baton: time([node, lib.BATON, 'hook', 'PreToolUse'], deny),
      reference: time(['bash', gate], deny),
      unit: 'ms',
      note: 'baton: JSON deny; ref: exit 2',
    },
    {
      name: 'hook PreToolUse Bash, allowed (GREEN, parsed command)',
      baton: time([node, lib.BATON, 'hook', 'PreToolUse'], bashAllow),
      reference: time(['bash', firewall], bashAllow),
      unit: 'ms',
      note: 'shell parser + analysis; ref = bash+jq firewall',
    },
    {
      name: 'hook PreToolUse Bash, denied (GREEN, cd + variable)',
      baton: time([node, lib.BATON, 'hook', 'PreToolUse'], bashDeny),
      reference: time(['bash', firewall], bashDeny),
      unit: 'ms',
      note: 'the reference misses this one (allows it)',
    },
    {
      name: 'hook SessionEnd (event the profile does not handle)',
      baton: time([node, lib.BATON, 'hook', 'SessionEnd'], '{"reason":"other"}'),
      reference: time(['bash', ignore], '{"reason":"other"}'),
      unit: 'ms',
      note: 'exits before the engine loads',
    },
  ];
}
