#!/bin/bash
# The man page, generated from the command definitions by swift-argument-parser's generate-manual
# tool, run on `haapi` alone (its package plugin would run every executable that links the
# argument parser, the fuzz harness binary too, which is no command line); as the README says.
# Checks that it documents every subcommand `haapi --help` lists, with its examples.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product haapi >/dev/null 2>&1 && swift build --product generate-manual >/dev/null 2>&1 \
  || { echo "man.sh: building haapi or generate-manual failed" >&2; exit 1; }
out=.build/man
mkdir -p "$out"
.build/debug/generate-manual .build/debug/haapi --output-directory "$out" \
  || { echo "man.sh: generate-manual failed" >&2; exit 1; }
page=$out/haapi.1
test -s "$page" || { echo "man.sh: no $page" >&2; exit 1; }
commands=$(.build/debug/haapi --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
test -n "$commands" || { echo "man.sh: haapi --help lists no subcommands" >&2; exit 1; }
missing=0
for command in $commands; do
  grep -qx "\.It Em $command" "$page" || { echo "man.sh: $page lacks $command" >&2; missing=1; }
done
grep -q "Examples:" "$page" || { echo "man.sh: $page has no examples" >&2; missing=1; }
exit $missing
