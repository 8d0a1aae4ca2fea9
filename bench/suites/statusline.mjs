// Status line rows: `baton statusline` against a bash+jq script doing the same work (one jq
// pass over the payload, git branch and counts cached 5 s per session, one jq pass over the task document for line 2). The host debounces at 300 ms and cancels a run
// that is still going, so the absolute figure matters as much as the ratio.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REFERENCE_SCRIPT = String.raw`#!/usr/bin/env bash
# Reference status line in bash+jq, shaped like the Eneo original with its defects fixed
# (fields read one per line with @sh, never a tab-joined row).
input=$(cat)
eval "$(jq -r '@sh "model=\(.model.display_name // "Claude") dir=\(.workspace.current_dir // "") sid=\(.session_id // "") pdir=\(.workspace.project_dir // "") ctx=\(.context_window.used_percentage // "") dur=\(.cost.total_duration_ms // "")"' <<<"$input")"
[ -n "$dir" ] || dir=$PWD
root=\${pdir:-\${CLAUDE_PROJECT_DIR:-$PWD}}
B=$'\e[1m' D=$'\e[2m' R=$'\e[0m' RED=$'\e[31m' GRN=$'\e[32m' YEL=$'\e[33m' CYN=$'\e[36m' S=' · '
line="$B[$model]$R \${dir##*/}"
if git -C "$dir" rev-parse --git-dir >/dev/null 2>&1; then
  cache="\${TMPDIR:-/tmp}/ref-statusline-cache/$sid.branch"
  if [ -n "$sid" ] && [ -f "$cache" ] && [ $(( $(date +%s) - $(stat -c %Y "$cache") )) -lt 5 ]; then
    IFS='|' read -r branch staged modified <"$cache"
  else
    branch=$(git -C "$dir" branch --show-current 2>/dev/null)
    staged=$(git -C "$dir" diff --cached --numstat 2>/dev/null | wc -l)
    modified=$(git -C "$dir" diff --numstat 2>/dev/null | wc -l)
    [ -n "$sid" ] && mkdir -p "\${cache%/*}" && echo "$branch|$staged|$modified" >"$cache"
  fi
  [ -n "$branch" ] && line+="$S$CYN⎇$R $branch"
  [ "$staged" != 0 ] && line+="$S$GRN+$staged$R"
  [ "$modified" != 0 ] && line+="$S$YEL~$modified$R"
fi
if [ -n "$ctx" ]; then
  pct=$(printf '%.0f' "$ctx"); col=$GRN; [ "$pct" -ge 70 ] && col=$YEL; [ "$pct" -ge 90 ] && col=$RED
  line+="$S$col$pct% ctx$R"
fi
if [ -n "$dur" ]; then
  s=$(( \${dur%.*} / 1000 ))
  if [ $s -lt 60 ]; then line+="$S\${s}s"; elif [ $s -lt 3600 ]; then line+="$S$((s/60))m"; else line+="$S$((s/3600))h$(((s%3600)/60))m"; fi
fi
printf '%s\n' "$line"
task="$root/.claude/state/current-task.json"
[ -f "$task" ] || exit 0
jq -r --arg B "$B" --arg D "$D" --arg R "$R" --arg RED "$RED" --arg GRN "$GRN" --arg YEL "$YEL" --arg CYN "$CYN" '
  def has_v: . != null and . != "" and . != false;
  select(.slug | has_v) |
  [ "\($B)\(.slug)\($R)" ]
  + (if (.phase|has_v) and (.phase_total|has_v) then ["\($D)p\($R)\(.phase)/\(.phase_total)"] else [] end)
  + (if (.wave|has_v) and (.wave_total|has_v) then
      [ "\($D)w\($R)\(.wave)/\(.wave_total) [" + ([range(1; ([.wave_total, 64] | min) + 1) as $i
        | (.wave_status[$i|tostring] // "") as $st
        | if $st == "done" then "▓" elif $st == "in_progress" then "▒" else "░" end] | join("")) + "]" ]
    else [] end)
  + ((.tdd_phase // "FREE") as $t | if $t == "FREE" or $t == "" then [] elif $t == "RED" then ["\($RED)RED\($R)"]
      elif $t == "GREEN" then ["\($GRN)GREEN\($R)"] elif $t == "REFACTOR" then ["\($YEL)REFACTOR\($R)"] else [$t] end)
  + (if ((.active_agents // []) | length) > 0 then ["\($CYN)↻\($R) " + (.active_agents | join(", "))]
     elif (.next_hint|has_v) then ["\($D)→\($R) \(.next_hint)"]
     elif .status == "in_progress" then ["\($D)…\($R)"] else [] end)
  | join(" · ")' "$task" 2>/dev/null
exit 0
`.replaceAll('\\${', '${'); // String.raw keeps the backslash that escapes \${ in a template

const TASK = {
  slug: 'bench',
  phase: 2,
  phase_total: 3,
  tdd_phase: 'GREEN',
  wave: 2,
  wave_total: 3,
  wave_status: { 1: 'done', 2: 'in_progress' },
  active_agents: ['impl', 'review'],
  status: 'in_progress',
  next_hint: null,
};

export default async function statusline(lib) {
  const dir = lib.tempDir('baton-bench-statusline-');
  const project = join(dir, 'repo');
  mkdirSync(join(project, '.claude', 'state'), { recursive: true });
  writeFileSync(join(project, '.claude', 'state', 'current-task.json'), `${JSON.stringify(TASK, null, 2)}\n`);
  writeFileSync(join(project, 'a.txt'), 'one\n');
  const git = (...args) => spawnSync('git', args, { cwd: project, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=b@b', '-c', 'user.name=b', 'add', 'a.txt');
  git('-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'init');
  writeFileSync(join(project, 'a.txt'), 'two\n');
  const script = join(dir, 'reference-statusline.sh');
  writeFileSync(script, REFERENCE_SCRIPT, { mode: 0o755 });
  const env = lib.benchEnv({ TMPDIR: dir, XDG_STATE_HOME: dir });
  delete env.CLAUDE_PROJECT_DIR;
  const payload = (sessionId) =>
    JSON.stringify({
      session_id: sessionId,
      model: { display_name: 'Opus' },
      workspace: { current_dir: project, project_dir: project },
      context_window: { used_percentage: 71.5 },
      cost: { total_duration_ms: 725000, total_cost_usd: 1.5 },
    });
  const node = process.execPath;
  const rows = [];
  const warm = payload('bench-warm');
  rows.push({
    name: 'statusline: one process, git cache warm',
    baton: lib.timeProcess([node, lib.BATON, 'statusline'], { cwd: project, env, input: warm }),
    reference: lib.timeProcess(['bash', script], { cwd: project, env, input: warm }),
    unit: 'ms',
    note: 'median of 20; host debounce is 300 ms',
  });
  // A new session id per run forces the git query every time (the cache is per session).
  let n = 0;
  const cold = () => payload(`bench-cold-${n++}`);
  const coldRun = (argv) => {
    const times = [];
    for (let i = 0; i < 15; i++)
      times.push(lib.timeProcess(argv, { cwd: project, env, input: cold(), runs: 1, warmup: 0 }));
    return times.sort((a, b) => a - b)[7];
  };
  rows.push({
    name: 'statusline: one process, git cache cold',
    baton: coldRun([node, lib.BATON, 'statusline']),
    reference: coldRun(['bash', script]),
    unit: 'ms',
    note: 'median of 15; git queried every run',
  });
  // Through `baton serve`: the plugin wrapper (what the status line command runs) asks it through bash's /dev/tcp.
  const server = spawn(node, [lib.BATON, 'serve', '--port', '0', '--idle-timeout', '0'], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (chunk) => (out += chunk).includes('\n') && resolve());
      server.once('exit', (code) => reject(new Error(`baton serve exited ${code}`)));
    });
    const wrapper = join(lib.ROOT, 'plugin', 'bin', 'baton');
    const served = { ...env, CLAUDE_PROJECT_DIR: project };
    const drawn = spawnSync('sh', [wrapper, 'statusline'], {
      cwd: project,
      env: served,
      input: warm,
      encoding: 'utf8',
    });
    if (!drawn.stdout.includes('bench')) throw new Error(`the served status line lacks the task: ${drawn.stdout}`);
    // Side by side, in shuffled turns, with CPU time: on a loaded machine the wall time is mostly waiting.
    const t = lib.timeInterleaved(
      {
        served: { argv: ['sh', wrapper, 'statusline'], env: served },
        reference: { argv: ['bash', script], env },
      },
      { cwd: project, input: warm },
    );
    rows.push({
      name: 'statusline: through baton serve, cache warm',
      baton: t.served.ms,
      reference: t.reference.ms,
      cpu: [t.served.cpu, t.reference.cpu],
      unit: 'ms',
      note: 'the plugin wrapper asking a running server; medians of 20 interleaved',
    });
  } finally {
    server.kill('SIGTERM');
  }
  return rows;
}
