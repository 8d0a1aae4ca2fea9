#!/usr/bin/env bash
# Drop-in for plugins/orchestrate/scripts/stop.sh: runs `baton hook Stop --profile orchestrate`.
# The common case, no active goal, is decided here without starting Node: drain stdin, touch
# nothing (docs/orchestrate.md, "Drop-in for an installed orchestrate plugin"). A hook never
# fails its host and never writes to stderr: without baton it is off.
if [ -z "${HOME:-}" ] || [ ! -e "$HOME/.claude/orchestrate/active" ] || ! command -v baton >/dev/null 2>&1; then
  cat >/dev/null 2>&1
  exit 0
fi
# The plugin folder this script stands in, so messages name its entry points.
BATON_ORCHESTRATE_PLUGIN_ROOT=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." 2>/dev/null && pwd) || BATON_ORCHESTRATE_PLUGIN_ROOT=
export BATON_ORCHESTRATE_PLUGIN_ROOT NODE_NO_WARNINGS=1
baton hook Stop --profile orchestrate 2>/dev/null
exit 0
