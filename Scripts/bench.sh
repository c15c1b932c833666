#!/bin/bash
# Builds in release mode and prints the benchmark table.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product OAuthCoreBenchmarks >&2
"$(swift build -c release --show-bin-path)/OAuthCoreBenchmarks"
