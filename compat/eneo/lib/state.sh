#!/usr/bin/env bash
# compat/eneo/lib/state.sh: drop-in replacement for the Eneo harness's hooks/lib/state.sh.
# Same function names, usage lines and exit codes (docs/eneo.md, "The Eneo compat helpers"); the work is done by
# `baton task`, which locks, validates, keeps history and maintains the phase mirror. Source it:
#   source compat/eneo/lib/state.sh && eneo_phase_set GREEN
# Requires `baton` on PATH (or BATON_BIN set to a command such as "node /path/bin/baton.js").
# The executables eneo-task-init, eneo-task-update and eneo-phase-set are in compat/eneo/bin/.
# Functions return (never exit) so a sourcing script keeps control; nothing leaks out of them.
# Every function the original library defined is here, so its own hooks (wave-barrier.sh, which
# takes the lock itself and writes with eneo_task_update_unlocked) keep working with only this
# file swapped: the lock they take is baton's state lock, the one every `baton task` write holds.

# When this file is used from the baton package itself (compat/eneo/lib/ next to bin/), the
# package's own CLI is the last resort, so compat/eneo/bin/ works on PATH without a global baton.
_eneo_pkg_cli="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." 2>/dev/null && pwd)/bin/baton.js"

_eneo_baton() {
  if [[ -n ${BATON_BIN:-} ]]; then
    # shellcheck disable=SC2086  # BATON_BIN may be "node /path/to/baton.js"
    $BATON_BIN task "$@"
  elif command -v baton >/dev/null 2>&1; then
    baton task "$@"
  elif [[ -f $_eneo_pkg_cli ]]; then
    node "$_eneo_pkg_cli" task "$@"
  else
    echo "[state] baton not found on PATH; install it (npm install -g baton-state) or set BATON_BIN" >&2
    return 1
  fi
}

# eneo_task_init <slug> <lane> <bracket> <tenancy_impact> <audit_impact>
eneo_task_init() {
  if (($# != 5)); then
    echo "usage: eneo-task-init <slug> <lane> <bracket> <tenancy_impact> <audit_impact>" >&2
    return 2
  fi
  _eneo_baton init -- "$@"
}

# eneo_task_update '<jq-expression>' [name value | json:name json]...
eneo_task_update() {
  if (($# < 1)) || ((($# - 1) % 2 != 0)); then
    echo "usage: eneo-task-update '<jq-expression>' [arg-name arg-value]..." >&2
    return 2
  fi
  _eneo_baton update -- "$@"
}

# eneo_task_update_if_exists: the same, silently doing nothing when there is no task.
eneo_task_update_if_exists() {
  if (($# < 1)) || ((($# - 1) % 2 != 0)); then
    echo "usage: eneo-task-update '<jq-expression>' [arg-name arg-value]..." >&2
    return 2
  fi
  _eneo_baton update --if-exists -- "$@"
}

# eneo_task_get <jq-expression> [default]: never fails because of the state (prints the default).
eneo_task_get() {
  if (($# < 1 || $# > 2)); then
    echo "usage: eneo_task_get <jq-expression> [default]" >&2
    return 2
  fi
  _eneo_baton get --default "${2:-}" -- "$1"
}

# eneo_phase_set RED|GREEN|REFACTOR|FREE: the JSON first, then the mirror, under one lock.
eneo_phase_set() {
  if (($# != 1)); then
    echo "usage: eneo-phase-set RED|GREEN|REFACTOR|FREE" >&2
    return 2
  fi
  _eneo_baton phase-set -- "$1"
}

# eneo_next_hint_consume: prints the hint (or an empty line) and sets it to null.
eneo_next_hint_consume() {
  _eneo_baton next-hint-consume
}

# eneo_task_clear: removes the task and wave.json, mirror back to FREE.
eneo_task_clear() {
  _eneo_baton clear
}

# eneo_wave_start <wave> <expected> [--total N] [--agents JSON]: seeds wave.json and the task.
eneo_wave_start() {
  _eneo_baton wave-start "$@"
}

# --- Paths (the project's, as baton resolves them: root markers, baton.config.json) -----------
eneo_task_file() { _eneo_baton path task; }
eneo_phase_file() { _eneo_baton path phase; }
eneo_wave_file() { _eneo_baton path wave; }
eneo_state_lock_root() { _eneo_baton path locks; }
# baton judges a lock stale when its holder is dead; this age is only the original's ceiling.
eneo_lock_ttl_seconds() { echo 30; }

# eneo_file_mtime <path>: seconds since the epoch (GNU or BSD stat).
eneo_file_mtime() {
  stat -c %Y "$1" 2>/dev/null || stat -f %m "$1"
}

# eneo_acquire_lock <name>: waits for baton's lock <name> (`state` is the state lock) on behalf of
# the calling shell and prints its handle; 1 with "[state] timed out acquiring lock: <name>".
# The lock is stale, and is taken over, once the calling shell has died.
eneo_acquire_lock() {
  if (($# != 1)); then
    echo "usage: eneo_acquire_lock <name>" >&2
    return 2
  fi
  _eneo_baton lock --pid "$$" -- "$1"
}

# eneo_release_lock <handle>: releases the lock if the handle still owns it; never fails.
eneo_release_lock() {
  [[ -n ${1:-} ]] || return 0
  _eneo_baton unlock -- "$1" || true
}

# eneo_task_update_unlocked: eneo_task_update for a caller that already holds the state lock
# (eneo_acquire_lock state): it writes inside that hold. Called without the hold, it takes the
# lock like any write, so it can never write unlocked.
eneo_task_update_unlocked() {
  if (($# < 1)) || ((($# - 1) % 2 != 0)); then
    echo "usage: eneo-task-update '<jq-expression>' [arg-name arg-value]..." >&2
    return 2
  fi
  BATON_LOCK_HOLDER_PID=$$ _eneo_baton update -- "$@"
}
