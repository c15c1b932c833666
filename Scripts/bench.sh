#!/bin/bash
# Builds in release mode and prints the benchmark tables: OAuthCore operations, decoding of
# each captured HAAPI response, HAAPI logins against the dev server, browser logins, refreshes
# and a 1000-caller single-flight refresh against Glewlwyd (started by Scripts/op/up.sh), and
# `haapi token` start-up.
#   Scripts/bench.sh --build-times   first also times two debug builds from empty scratch folders:
#   the library products an iOS app adds (HaapiUI and OIDCClient, with what they depend on) and
#   the whole package (several minutes each on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--build-times" ]; then
  shift
  seconds() {   # seconds SCRATCH TARGET... : wall time of a debug build of the targets from an empty scratch folder
    local scratch=$1; shift
    rm -rf "$scratch"
    local start end target
    start=$(date +%s.%N)
    if [ $# -eq 0 ]; then swift build --scratch-path "$scratch" >&2; fi
    for target in "$@"; do swift build --scratch-path "$scratch" --target "$target" >&2; done
    end=$(date +%s.%N)
    rm -rf "$scratch"
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
  }
  APP=$(seconds .build-bench-app HaapiUI OIDCClient)
  WHOLE=$(seconds .build-bench-whole)
  printf '\n| build from an empty scratch folder (debug) | seconds |\n|---|---|\n'
  printf '| what an iOS app adds: HaapiUI, OIDCClient and their dependencies | %.0f |\n' "$APP"
  printf '| the whole package (CLI, dev server, NIO transport, benchmarks) | %.0f |\n\n' "$WHOLE"
fi

swift build -c release --product Benchmarks >&2
swift build -c release --product haapi >&2
BIN=$(swift build -c release --show-bin-path)
OP_ENV=$(Scripts/op/up.sh) || { echo "bench: Glewlwyd did not start; its rows are skipped" >&2; OP_ENV=; }
"$BIN/Benchmarks" --haapi "$BIN/haapi" ${OP_ENV:+--op-env "$OP_ENV"} "$@"
