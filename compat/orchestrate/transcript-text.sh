#!/usr/bin/env bash
# Drop-in for plugins/orchestrate/scripts/transcript-text.sh: execs `baton goal transcript`.
# No drop-in marker (BATON_ORCHESTRATE_PLUGIN_ROOT): with it `baton goal` acts as goal.sh, which
# has no transcript verb. The reader names no entry point, so it does not need the plugin folder.
unset BATON_ORCHESTRATE_PLUGIN_ROOT
export NODE_NO_WARNINGS=1
command -v baton >/dev/null 2>&1 || { echo "transcript-text.sh: baton is not on PATH; install it (npm install -g baton-state)" >&2; exit 1; }
exec baton goal transcript "$@"
