#!/usr/bin/env bash
# Drop-in for plugins/orchestrate/scripts/state-lint.sh: execs `baton lint`.
# The plugin folder this script stands in is passed on, so messages name its entry points.
BATON_ORCHESTRATE_PLUGIN_ROOT=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." 2>/dev/null && pwd) || BATON_ORCHESTRATE_PLUGIN_ROOT=
export BATON_ORCHESTRATE_PLUGIN_ROOT NODE_NO_WARNINGS=1
command -v baton >/dev/null 2>&1 || { echo "state-lint.sh: baton is not on PATH; install it (npm install -g baton-state)" >&2; exit 1; }
exec baton lint "$@"
