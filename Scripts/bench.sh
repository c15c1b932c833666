#!/bin/bash
# Builds in release mode and prints the benchmark tables: OAuthCore operations, decoding of
# each captured HAAPI response, HAAPI logins against the dev server, browser logins, refreshes
# and a 1000-caller single-flight refresh against Glewlwyd (started by Scripts/op/up.sh), and
# `haapi token` start-up beside the floor program (Scripts/bench/floor.swift).
#   Scripts/bench.sh --build-times   first also times builds from empty scratch folders (several
#   minutes each on two cores): on Linux, a debug build of the targets an iOS app adds (OAuthCore,
#   HaapiDriver, OIDCClient, HaapiSDK, HaapiUI, with their dependencies) against the whole package
#   (goal: 0.3 of it or less); and, with ../shared/apple-sdk, the iOS type-check build of those
#   targets (Scripts/check-apple.sh) with its count of C compile steps (goal: none, no BoringSSL).
#   Scripts/bench.sh --build-times-only   those build rows alone.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--build-times" ] || [ "${1:-}" = "--build-times-only" ]; then
  only=$([ "$1" = "--build-times-only" ] && echo yes || echo no)
  shift
  APP_TARGETS=(OAuthCore HaapiDriver OIDCClient HaapiSDK HaapiUI)
  seconds() {   # seconds SCRATCH TARGET... : wall time of a debug build of the targets from an empty scratch folder
    local scratch=$1; shift
    rm -rf "$scratch"
    local start end build=(swift build --scratch-path "$scratch")
    for target in "$@"; do build+=(--target "$target"); done
    start=$(date +%s.%N)
    "${build[@]}" >&2
    end=$(date +%s.%N)
    rm -rf "$scratch"
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
  }
  APP=$(seconds .build-bench-app "${APP_TARGETS[@]}")
  WHOLE=$(seconds .build-bench-whole)
  printf '\n| build from an empty scratch folder | seconds |\n|---|---|\n'
  printf '| Linux debug: what an iOS app adds (%s, with their dependencies) | %.0f |\n' "${APP_TARGETS[*]}" "$APP"
  printf '| Linux debug: the whole package (CLI, dev server, NIO transport, benchmarks) | %.0f |\n' "$WHOLE"
  printf '| ratio, app-facing / whole (goal 0.3 or less) | %.2f |\n' "$(awk -v a="$APP" -v w="$WHOLE" 'BEGIN { print a / w }')"
  if [ -f ../shared/apple-sdk/env.sh ]; then
    rm -rf .build-bench-ios
    IOS=$(HAAPI_APPLE_SCRATCH=$PWD/.build-bench-ios Scripts/check-apple.sh 2>&1)
    printf '%s\n' "$IOS" >&2
    rm -rf .build-bench-ios
    printf '| iOS type-check (Scripts/check-apple.sh): the app-facing targets | %s |\n' \
      "$(printf '%s\n' "$IOS" | sed -n 's/^  targets built in \([0-9]*\) s.*/\1/p')"
    printf '| iOS type-check: C compile steps in that build | %s |\n\n' \
      "$(printf '%s\n' "$IOS" | sed -n 's/^  C compile steps: //p')"
  else
    printf '| iOS type-check | skipped: no ../shared/apple-sdk |\n\n'
  fi
  [ "$only" = yes ] && exit 0
fi

swift build -c release --product Benchmarks >&2
BIN=$(swift build -c release --show-bin-path)
# The haapi binary people install (Scripts/build-cli.sh), and the programs the start-up rows use:
# runstat, which starts a command and reads what it cost, and the floor program beside haapi token.
HAAPI=$(Scripts/build-cli.sh | head -1)
mkdir -p .build/bench
clang -O2 -Wall -o .build/bench/runstat Scripts/bench/runstat.c
swiftc -O -o .build/bench/floor Scripts/bench/floor.swift
# The same program linked as haapi is (Scripts/build-cli.sh): the floor haapi token is held to.
if [ "$(uname -s)" = Linux ]; then
  swiftc -O -static-stdlib -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -o .build/bench/floor-static Scripts/bench/floor.swift
  STATIC_FLOOR=(--static-floor .build/bench/floor-static)
else
  STATIC_FLOOR=()
fi
OP_ENV=$(Scripts/op/up.sh) || { echo "bench: Glewlwyd did not start; its rows are skipped" >&2; OP_ENV=; }
# The keyring rows: a D-Bus session of their own with an unlocked GNOME Keyring, stopped at the end.
KEYRING=()
if command -v dbus-daemon >/dev/null && command -v gnome-keyring-daemon >/dev/null && command -v secret-tool >/dev/null; then
  mkdir -p .build/bench/keyring
  BUS=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  BUS_ADDRESS=$(printf '%s\n' "$BUS" | sed -n 1p)
  trap 'kill "$(printf "%s\n" "$BUS" | sed -n 2p)" 2>/dev/null || true' EXIT
  printf 'bench' | DBUS_SESSION_BUS_ADDRESS=$BUS_ADDRESS HOME=$PWD/.build/bench/keyring gnome-keyring-daemon --unlock --components=secrets >/dev/null
  KEYRING=(--keyring-bus "$BUS_ADDRESS" --secret-tool "$(command -v secret-tool)")
fi
"$BIN/Benchmarks" --haapi "$HAAPI" --runstat .build/bench/runstat --floor .build/bench/floor "${STATIC_FLOOR[@]}" ${OP_ENV:+--op-env "$OP_ENV"} "${KEYRING[@]}" "$@"
