#!/usr/bin/env bash
# Drop-in for plugins/orchestrate/scripts/stop.sh: runs baton (hook Stop --profile orchestrate).
# The plugin folder this script stands in is passed on, so messages name its entry points.
BATON_ORCHESTRATE_PLUGIN_ROOT=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." 2>/dev/null && pwd) || BATON_ORCHESTRATE_PLUGIN_ROOT=
export BATON_ORCHESTRATE_PLUGIN_ROOT NODE_NO_WARNINGS=1
# A hook never fails its host and never writes to stderr: without baton it is silently off.
command -v baton >/dev/null 2>&1 || { cat >/dev/null; exit 0; }
baton hook Stop --profile orchestrate 2>/dev/null
exit 0
