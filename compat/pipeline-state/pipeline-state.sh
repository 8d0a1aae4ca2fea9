#!/usr/bin/env bash
# Drop-in for the pipeline-state skill's scripts/pipeline-state.sh, backed by baton:
#   pipeline-state.sh <init|set|append|get|clear> <session_id> [field] [value]
# Same arguments, output lines and exit codes as the original (every argument is positional, so
# a value like "--json" is stored as text). What changes, on purpose: init no longer wipes
# .ai_log/ (use `baton run clean` for that), writes to a run that was never init'ed fail instead
# of creating {}, labels with '/' or '..' are refused, and every write is locked and atomic
# (parallel agents lose nothing).
# Requires `baton` on PATH (or BATON_BIN set to a command such as "node /path/bin/baton.js").
export NODE_NO_WARNINGS=1
if [[ -n ${BATON_BIN:-} ]]; then
  # shellcheck disable=SC2086  # BATON_BIN may be "node /path/to/baton.js"
  exec $BATON_BIN run --compat "$@"
fi
command -v baton >/dev/null 2>&1 || { echo "pipeline-state.sh: baton is not on PATH; install it (npm install -g baton-state) or set BATON_BIN" >&2; exit 1; }
exec baton run --compat "$@"
