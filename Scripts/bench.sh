#!/bin/bash
# Builds in release mode and prints the benchmark tables: OAuthCore operations, decoding of
# each captured HAAPI response, HAAPI logins against the dev server, and `haapi token` start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product OAuthCoreBenchmarks >&2
swift build -c release --product haapi >&2
BIN=$(swift build -c release --show-bin-path)
"$BIN/OAuthCoreBenchmarks" --haapi "$BIN/haapi" "$@"
