#!/bin/bash
# baton's OS sandbox for one shell call on Linux (docs/gates.md#the-os-sandbox). The PreToolUse
# hook rewrites a shell command, in a phase with write rules, into a call of this script:
#
#   run.sh SPEC IDENTITY COMMAND      fd 3: where the command's final working folder is written
#
# SPEC is a file the hook wrote under <root>/.baton/sandbox/ (read-only to the command, so it
# cannot be forged), NUL-separated: "baton-sandbox-1", bwrap's path, the project root, then
# records: B path (bind read-only), K path (protected, not bound: a symlink), N path (outside the
# root: must not appear), R id (a rule for the scan), G glob (a -path all its matches pass), then + TEST PATTERN (one of its paths), & TEST
# PATTERN (also), ! TEST PATTERN (unless), TEST being find's -name, -path or -regex; on macOS the
# program is sandbox-exec and one record P carries its profile.
#
# The command runs in bubblewrap with every B path read-only and no capabilities (so it cannot
# unmount them), in its own pid namespace (every process it starts ends with it, so nothing writes
# after the scan below). A protected path that did not exist cannot be bound: after the run, any
# entry of the project that matches a rule's paths and was not bound (created, renamed or linked
# in) is moved aside to .baton/quarantine/, never deleted, with one line on stderr each.
# Nothing here evaluates text the command could have written.
set -u
spec=$1 identity=$2 command=$3

fail() {
  printf 'baton sandbox: %s\n' "$1" >&2
  exit 126
}

[[ -f $spec && ! -L $spec ]] || fail "no sandbox spec at $spec; the hook writes it: run the command again"
mapfile -d '' -t field <"$spec"
[[ ${field[0]-} == baton-sandbox-1 ]] || fail "$spec is not a baton sandbox spec; run the command again"
bwrap=${field[1]} root=${field[2]}
args=(--dev-bind / / --cap-drop ALL --unshare-pid --proc /proc --die-with-parent --new-session)
declare -A bound=()
profile=
outside=() rules=() ids=()
expr=() current=() paths=() also=() unless=() guard=()

# One rule's find expression: any of its paths, all of its also, none of its unless.
close_rule() {
  ((${#paths[@]})) || return 0
  current=(\( "${guard[@]}" \( "${paths[@]:1}" \))
  ((${#also[@]})) && current+=(\( "${also[@]:1}" \))
  ((${#unless[@]})) && current+=(! \( "${unless[@]:1}" \))
  # A matching folder moves aside whole: its entries are not listed again.
  current+=(-printf "${#ids[@]}\\0%p\\0" -prune \))
  ((${#expr[@]})) && expr+=(-o)
  expr+=("${current[@]}")
  ids+=("$rule")
  paths=() also=() unless=() guard=()
}

i=3
while ((i < ${#field[@]})); do
  kind=${field[i]} value=${field[i + 1]-}
  ((i += 2))
  case $kind in
    B)
      args+=(--ro-bind-try "$value" "$value")
      bound[$value]=1
      ;;
    K) bound[$value]=1 ;;
    N) outside+=("$value") ;;
    P) profile=$value ;;
    R)
      close_rule
      rule=$value
      ;;
    G) guard=(-path "$value") ;;
    + | \& | !)
      text=${field[i]-}
      ((i += 1))
      [[ $value == -name || $value == -path || $value == -regex ]] || fail "$spec has an unknown test '$value'; run the command again"
      case $kind in
        +) paths+=(-o "$value" "$text") ;;
        \&) also+=(-o "$value" "$text") ;;
        !) unless+=(-o "$value" "$text") ;;
      esac
      ;;
    *) fail "$spec has an unknown record '$kind'; run the command again" ;;
  esac
done
close_rule

# The identity of the caller, for baton commands run inside (read-only, placeholder outside).
placeholder=$root/.baton/sandbox/identity.json
[[ -f $placeholder ]] && args+=(--ro-bind-data 5 "$placeholder")

start=$EPOCHREALTIME
# The inner shell: the outer shell's functions and aliases, the command, then its final folder on
# fd 3 (moved off 3 first, so the command finds fd 3 free). `exit` in the command skips the
# report, as it skips the host's own `pwd` unwrapped. BATON_PHASE_SANDBOX tells a baton run inside
# why its state is read-only (src/cli/run-cli.ts): it only changes that message.
inner='exec {__baton_cwd_fd}>&3 3>&-
export BATON_PHASE_SANDBOX=1
eval "${BATON_SANDBOX_DEFS-}"; unset BATON_SANDBOX_DEFS
__baton_command=$1; shift
eval "$__baton_command"
__baton_status=$?
builtin printf "%s" "$(builtin pwd -P)" >&"$__baton_cwd_fd"
exit "$__baton_status"'
if [[ -n $profile ]]; then
  # macOS: Seatbelt denies every write the profile names, new files included; nothing to scan.
  "$bwrap" -p "$profile" /bin/bash -c "$inner" bash "$command"
  exit
fi
# In the background (its standard input kept), so that a host ending the call at its timeout
# (TERM, then KILL a moment later) still gets the scan below: the sandbox is ended first, and
# its pid namespace takes every process it started with it.
"$bwrap" "${args[@]}" -- /bin/bash -c "$inner" bash "$command" 5<<<"$identity" 0<&0 &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
wait "$child"
status=$?
# A trapped signal ends `wait` early: wait again until the sandbox has really ended.
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  status=$?
done
trap - TERM INT HUP

((${#expr[@]} + ${#outside[@]})) || exit "$status"

# Entries that appeared. Pruned: installed dependencies, the project's own git store, and the
# bound folders (read-only throughout). A `.git` anywhere else is scanned: a command could hide a
# new test file in a folder it names so. A folder the scan cannot read that changed during the
# call is moved aside whole: a command must not hide a new file by closing a folder to the scan.
prune=(-name node_modules -o -path "$root/.git")
for path in "${!bound[@]}"; do
  [[ -d $path && ! -L $path && $path == "$root"/* ]] || continue
  escaped=${path//\\/\\\\} escaped=${escaped//\*/\\*} escaped=${escaped//\?/\\?} escaped=${escaped//\[/\\[}
  prune+=(-o -path "$escaped")
done
found=()
if ((${#expr[@]})); then
  while IFS= read -r -d '' index && IFS= read -r -d '' path; do
    [[ -n ${bound[$path]-} ]] && continue
    found+=("$index" "$path")
  done < <(find -P "$root" -regextype posix-extended \( "${prune[@]}" \) -prune -o \
    \( -type d ! -readable -newerct "@${start%[.,]*}" -printf 'U\0%p\0' -prune \) -o \
    \( "${expr[@]}" \) 2>/dev/null)
fi
for path in "${outside[@]}"; do
  [[ -e $path || -L $path ]] && found+=(N "$path")
done
((${#found[@]})) || exit "$status"

stamp=$(date -u +%Y%m%dT%H%M%SZ)-$$
quarantine=$root/.baton/quarantine/$stamp
moved=0
for ((k = 0; k < ${#found[@]}; k += 2)); do
  index=${found[k]} path=${found[k + 1]}
  case $index in
    U) why='a folder the scan could not read' ;;
    N) why="a file the host or baton runs, which a sandboxed command may not create" ;;
    *) why="rule ${ids[index]} protects it in this phase" ;;
  esac
  rel=${path#"$root"/}
  [[ $path == "$root"/* ]] || rel=outside${path}
  target=$quarantine/$rel
  mkdir -p -- "${target%/*}" || continue
  # A folder the command made read-only keeps its entries in: it is the command's own folder.
  [[ -w ${path%/*} ]] || chmod u+w -- "${path%/*}" 2>/dev/null
  if mv -f -T -- "$path" "$target" 2>/dev/null; then
    printf 'baton: moved %s to .baton/quarantine/%s: %s.\n' "$rel" "$stamp/$rel" "$why" >&2
    moved=1
  else
    printf 'baton: could not move %s aside (%s): remove it by hand.\n' "$rel" "$why" >&2
    moved=1
  fi
done
((moved && status == 0)) && status=1
exit "$status"
