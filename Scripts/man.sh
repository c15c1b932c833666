#!/bin/bash
# The man page, generated from the command definitions by swift-argument-parser's plugin, as the
# README says (a debug build: the plugin's default release build takes over ten minutes here).
# Checks that it documents every subcommand `haapi --help` lists, with its examples.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package plugin generate-manual --configuration debug >/dev/null 2>&1 \
  || { echo "man.sh: swift package plugin generate-manual failed" >&2; exit 1; }
page=.build/plugins/GenerateManual/outputs/haapi/haapi.1
test -s "$page" || { echo "man.sh: no $page" >&2; exit 1; }
commands=$(.build/debug/haapi --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
test -n "$commands" || { echo "man.sh: haapi --help lists no subcommands" >&2; exit 1; }
missing=0
for command in $commands; do
  grep -qx "\.It Em $command" "$page" || { echo "man.sh: $page lacks $command" >&2; missing=1; }
done
grep -q "Examples:" "$page" || { echo "man.sh: $page has no examples" >&2; missing=1; }
exit $missing
