#!/bin/bash
# Builds in release mode and prints the benchmark tables: OAuthCore operations, decoding of
# each captured HAAPI response, HAAPI logins against the dev server, browser logins, refreshes
# and a 1000-caller single-flight refresh against Glewlwyd (started by Scripts/op/up.sh), and
# `haapi token` start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product Benchmarks >&2
swift build -c release --product haapi >&2
BIN=$(swift build -c release --show-bin-path)
OP_ENV=$(Scripts/op/up.sh) || { echo "bench: Glewlwyd did not start; its rows are skipped" >&2; OP_ENV=; }
"$BIN/Benchmarks" --haapi "$BIN/haapi" ${OP_ENV:+--op-env "$OP_ENV"} "$@"
