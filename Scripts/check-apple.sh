#!/bin/bash
# Type-checks for iOS (arm64-apple-ios15.0) what an iOS app compiles of this package, with the SDK
# in ../shared/apple-sdk (its README): the app-facing targets with every Apple-only file in them,
# the seed snippets that need UIKit, SwiftUI or AuthenticationServices (Tests/AppleSnippets), and
# apps written for Curity's UI kit and SDK, unchanged (Tests/CurityApps: our modules IdsvrHaapiUIKit
# and IdsvrHaapiSdk are named as Curity's; the same files are type-checked against Curity's own
# modules when those are fetched), and a probe of each public declaration of Curity's two
# interfaces (Scripts/apple/interface-diff.py).
# Then Scripts/reference-names.sh counts the seeds' reference names the modules define. First,
# Scripts/apple/hazards.py finds by pattern what compiles and then breaks on a device.
# Fails on any error, on a missing reference name not listed in docs/PORTING.md, and when
# BoringSSL (or any other C code) is compiled for those targets.
#
#   Scripts/check-apple.sh              the check
#   Scripts/check-apple.sh --self-test  the check, then the proof that it is real: a wrong line in
#                                       every Apple-only file, snippet and Curity app must be an
#                                       error where the check compiles it; and the reference names'
#                                       self-test (planted faults in the name lists and PORTING.md,
#                                       each reported)
#   Scripts/check-apple.sh --snippets   only the snippets, against the modules of the last check
#
# Without the SDK it says that it skipped and exits 0: the tests never depend on it.
# Swift's availability checking stays on for our code: SwiftUI, whose interface in this SDK fails
# Swift 6.3's availability checks, is loaded from a module prebuilt once without them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sdk_dir=${HAAPI_APPLE_SDK_DIR:-$root/../shared/apple-sdk}
targets=(OAuthCore OAuthTransportURLSession HaapiDriver OIDCClient HaapiSDK HaapiUI IdsvrHaapiSdk IdsvrHaapiUIKit)
# What is built: the targets no other of them depends on (each build builds what it imports).
leaves=(OIDCClient IdsvrHaapiSdk IdsvrHaapiUIKit)
# A positive test for an Apple framework in an `#if` at the start of a line marks Apple-only code.
apple_guard='^#if .*(?<!!)canImport\((UIKit|SwiftUI|AuthenticationServices|Security|DeviceCheck|CryptoKit|LocalAuthentication|Combine)\)'

# What a type-check cannot see in UIKit code (Scripts/apple/hazards.py: text only, no SDK needed);
# with --self-test, a planted line of each rule first.
if [ "${1:-}" = "--self-test" ]; then Scripts/apple/hazards.py --self-test; else Scripts/apple/hazards.py; fi

if [ ! -f "$sdk_dir/env.sh" ]; then
  echo "check-apple: skipped: no Apple SDK at $sdk_dir (see ../shared/apple-sdk/README.md); nothing was type-checked for iOS"
  exit 0
fi
# shellcheck source=/dev/null
. "$sdk_dir/env.sh"
export APPLE_SDK_STAND_IN=$SWIFT_DRIVER_SWIFT_FRONTEND_EXEC
export SWIFT_DRIVER_SWIFT_FRONTEND_EXEC=$root/Scripts/apple/swift-frontend
export HAAPI_APPLE_MODULES="${targets[*]}"
triple=arm64-apple-ios15.0
real_frontend=$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-frontend

# The Apple-only files of the app-facing targets, and the snippets.
apple_files() { # package directory
  local dir=$1 target
  for target in "${targets[@]}"; do grep -rlP "$apple_guard" "$dir/Sources/$target" --include='*.swift' || true; done | sort
}

# SwiftUI prebuilt without availability checks, once per SDK and compiler.
prebuilt_swiftui() {
  local compiler dir interface
  compiler=$(swiftc --version 2>/dev/null | sha256sum | cut -c1-12)
  dir=$(dirname "$APPLE_SDK")/prebuilt-modules-$compiler
  interface=$APPLE_SDK/System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface
  if [ ! -f "$dir/SwiftUI.swiftmodule/arm64-apple-ios.swiftmodule" ]; then
    echo "check-apple: prebuilding SwiftUI for arm64-apple-ios (once per SDK and compiler, about a minute)" >&2
    mkdir -p "$dir/SwiftUI.swiftmodule" "$dir.cache"
    "$real_frontend" -compile-module-from-interface -module-name SwiftUI "$interface" \
      -o "$dir/SwiftUI.swiftmodule/arm64-apple-ios.swiftmodule.tmp" -target "$triple" -sdk "$APPLE_SDK" \
      -resource-dir "$APPLE_RESOURCE_DIR" -module-cache-path "$dir.cache" -disable-availability-checking >&2
    mv "$dir/SwiftUI.swiftmodule/arm64-apple-ios.swiftmodule.tmp" "$dir/SwiftUI.swiftmodule/arm64-apple-ios.swiftmodule"
  fi
  echo "$dir"
}

# check PACKAGE_DIR SCRATCH LOG: type-checks the package's app-facing targets and its snippets;
# the compiler's output goes to LOG. Returns non-zero on any error.
check() {
  local package=$1 scratch=$2 log=$3 prebuilt backfill modules file status=0
  prebuilt=$(prebuilt_swiftui)
  backfill=$scratch/apple-backfill
  modules=$scratch/arm64-apple-ios/debug/Modules
  local common=(-sdk "$APPLE_SDK" -resource-dir "$APPLE_RESOURCE_DIR" -swift-version 5
    -Xfrontend -prebuilt-module-cache-path -Xfrontend "$prebuilt")
  : >"$log"
  mkdir -p "$backfill" "$scratch/frontend-cwd"
  export HAAPI_APPLE_BACKFILL=$backfill HAAPI_APPLE_FRONTEND_DIR=$scratch/frontend-cwd
  swiftc -emit-module -parse-as-library -module-name AppleSDKBackfill -target "$triple" "${common[@]}" \
    -module-cache-path "$scratch/arm64-apple-ios/debug/ModuleCache" \
    -emit-module-path "$backfill/AppleSDKBackfill.swiftmodule" "$package"/Scripts/apple/Backfill/*.swift >>"$log" 2>&1 || status=1

  # C targets compiled earlier are removed, so that any still in the graph compiles again and shows.
  # Empty dependency records (no type-check writes real ones) would crash the driver's incremental mode.
  if [ -d "$scratch/arm64-apple-ios/debug" ] && [ "${HAAPI_APPLE_SNIPPETS_ONLY:-}" != 1 ]; then
    find "$scratch/arm64-apple-ios/debug" -name '*.swiftdeps' -size 0 -delete
    find "$scratch/arm64-apple-ios/debug" -maxdepth 1 -name '*.build' -type d | while read -r dir; do
      if find "$dir" -name '*.o' -size +0 -print -quit | grep -q .; then rm -rf "$dir"; fi
    done
  fi
  local build=(swift build --package-path "$package" --scratch-path "$scratch" --triple "$triple" --sdk "$APPLE_SDK")
  for flag in -resource-dir "$APPLE_RESOURCE_DIR" -swift-version 5 \
    -Xfrontend -prebuilt-module-cache-path -Xfrontend "$prebuilt"; do build+=(-Xswiftc "$flag"); done
  local started
  started=$(date +%s)
  # One build per leaf: `swift build` honours only the last of several `--target` flags, and
  # the targets are not all below one another (HaapiSDK and OIDCClient are siblings).
  if [ "${HAAPI_APPLE_SNIPPETS_ONLY:-}" != 1 ]; then
    for target in "${leaves[@]}"; do
      "${build[@]}" --target "$target" >>"$log" 2>&1 || status=1
    done
  fi
  echo "$(($(date +%s) - started))" >"$scratch/apple-targets-seconds"
  rm -rf "$scratch/frontend-cwd"

  # Each snippet file is an app of its own (a module each: each may have its own @main). Apps
  # written for Curity's kit and SDK (Tests/CurityApps) are type-checked unchanged: their
  # `import IdsvrHaapiUIKit` and `import IdsvrHaapiSdk` are our modules of those names. Two at a
  # time (one per core), each into a log of its own, joined in order afterwards.
  local apps=$scratch/curity-apps file
  rm -rf "$apps"
  mkdir -p "$apps"
  local inputs=() labels=()
  for file in "$package"/Tests/AppleSnippets/*.swift; do inputs+=("$file"); labels+=("snippet $(basename "$file")"); done
  for file in "$package"/Tests/CurityApps/*.swift; do
    [ -f "$file" ] || continue
    inputs+=("$file"); labels+=("Curity app $(basename "$file")")
  done
  local index running=0
  for index in "${!inputs[@]}"; do
    file=${inputs[$index]}
    { if swiftc -typecheck -parse-as-library -module-name "$(basename "$file" .swift)" -target "$triple" "${common[@]}" \
        -I "$modules" -I "$backfill" -module-cache-path "$scratch/arm64-apple-ios/debug/ModuleCache" \
        "$file" >"$apps/$index.log" 2>&1; then echo 0 >"$apps/$index.status"; else echo 1 >"$apps/$index.status"; fi; } &
    running=$((running + 1))
    if [ "$running" -ge 2 ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait
  for index in "${!inputs[@]}"; do
    echo "check-apple: ${labels[$index]}" >>"$log"
    cat "$apps/$index.log" >>"$log"
    [ "$(cat "$apps/$index.status" 2>/dev/null)" = 0 ] || status=1
  done
  return $status
}

# The proof that Tests/CurityApps are apps of Curity's: each type-checks, unchanged, against
# Curity's own modules (../shared/apple-sdk/curity-typecheck.sh; it needs the public
# curityio/ios-idsvr-haapi-*-dist repositories fetched, and says so when they are not).
curity_proof() {
  local script=$sdk_dir/curity-typecheck.sh out rc
  if [ ! -x "$script" ]; then
    echo "  Curity apps against Curity's modules: skipped (no $script)"
    return 0
  fi
  out=$("$script" "$root"/Tests/CurityApps/*.swift 2>&1) && rc=0 || rc=$?
  if [ "$rc" -eq 2 ]; then
    echo "  Curity apps against Curity's modules: skipped ($(printf '%s' "$out" | tail -1))"
    return 0
  fi
  printf '%s\n' "$out" | grep -E '^(PASS|FAIL)' | sed 's/^/  Curity modules: /'
  [ "$rc" -eq 0 ] || { printf '%s\n' "$out" | grep -E 'error:' | head -20 >&2; return 1; }
}

errors_in() { grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' "$1" | sort -u || true; }

[ "${1:-}" = "--snippets" ] && export HAAPI_APPLE_SNIPPETS_ONLY=1
log=$root/.build/ios-check.log
mkdir -p "$root/.build"
started=$(date +%s)
status=0
scratch=${HAAPI_APPLE_SCRATCH:-$root/.build/ios}
check "$root" "$scratch" "$log" || status=1
errors=$(errors_in "$log")
count=$(printf '%s' "$errors" | grep -c . || true)
c_steps=$(grep -cE '^(\[[0-9]+/[0-9]+\] )?Compiling .*\.(c|cc|cpp|m|mm|S)$' "$log" || true)
# Every C target built before was removed first, so one that exists now was compiled by this run.
boring=no
[ -d "$scratch/arm64-apple-ios/debug/CCryptoBoringSSL.build" ] && boring=yes
[ "${HAAPI_APPLE_SNIPPETS_ONLY:-}" = 1 ] && boring="not built by --snippets"

echo "check-apple: type-checked for $triple in $(($(date +%s) - started)) s (log: $log)"
echo "  targets: ${targets[*]}"
echo "  targets built in $(cat "$scratch/apple-targets-seconds") s"
echo "  Apple-only files: $(apple_files "$root" | sed "s#^$root/##" | tr '\n' ' ')"
echo "  snippets: $(cd Tests/AppleSnippets && ls -- *.swift | tr '\n' ' ')"
echo "  Curity apps, unchanged: $(cd Tests/CurityApps && ls -- *.swift | tr '\n' ' ')"
echo "  C compile steps: $c_steps (BoringSSL: $boring)"
if [ "$count" -gt 0 ] || [ "$status" -ne 0 ]; then
  printf '%s\n' "$errors" | sed "s#^$root/##" >&2
  echo "check-apple: FAILED: $count errors" >&2
  exit 1
fi
if [ "$boring" = yes ]; then
  echo "check-apple: FAILED: BoringSSL is compiled for the app-facing targets" >&2
  exit 1
fi
if ! curity_proof; then
  echo "check-apple: FAILED: an app of Tests/CurityApps does not type-check against Curity's modules" >&2
  exit 1
fi
# How much of Curity's public names the iOS modules define, with the names not provided listed
# with a reason in docs/PORTING.md.
if [ "${HAAPI_APPLE_SNIPPETS_ONLY:-}" != 1 ]; then
  if ! Scripts/reference-names.sh "$scratch/arm64-apple-ios/debug/Modules" | sed 's/^/  /'; then
    echo "check-apple: FAILED: a reference name is missing and not listed in docs/PORTING.md as it is missing, or a listed name is not missing" >&2
    exit 1
  fi
  # Its judging, proved on planted faults in copies of the name lists and PORTING.md.
  if [ "${1:-}" = "--self-test" ] && ! Scripts/reference-names.sh --self-test "$scratch/arm64-apple-ios/debug/Modules" | sed 's/^/  /'; then
    echo "check-apple: FAILED: the reference names' self-test" >&2
    exit 1
  fi
fi
# Every public declaration of Curity's UI kit and SDK, used as declared by a probe of app code
# that passes against Curity's own modules, against ours (when Curity's modules are unpacked).
if [ "${HAAPI_APPLE_SNIPPETS_ONLY:-}" != 1 ]; then
  if ! HAAPI_PREBUILT=$(prebuilt_swiftui) PROBE_INCLUDE=$scratch/apple-backfill \
      Scripts/apple/interface-diff.py "$scratch/arm64-apple-ios/debug/Modules" >"$root/.build/interface-diff.log" 2>&1; then
    sed 's/^/  /' "$root/.build/interface-diff.log" | tail -40
    echo "check-apple: FAILED: the interface diff against Curity's modules (log: .build/interface-diff.log)" >&2
    exit 1
  fi
  grep -E '^(IdsvrHaapi[A-Za-z]+: [0-9]|interface-diff: skipped)' "$root/.build/interface-diff.log" | sed 's/^/  /'
  echo "  (each declaration not usable, with the compiler's reason: .build/interface-diff.log)"
fi
# The proof that the check is real: run after it, against its build. Every Apple-only file of the
# targets, given a wrong line, must be an error where the check's build compiles it (one type-check
# per module, Scripts/apple/plant-check.py); then a copy of the snippets and Curity apps, each with
# a wrong line, must fail this script's own check() with an error at each of those lines.
if [ "${1:-}" = "--self-test" ]; then
  started=$SECONDS
  if ! Scripts/apple/plant-check.py "$scratch"; then
    echo "check-apple: FAILED: the self-test of the targets" >&2
    exit 1
  fi
  copy=$root/.build/ios-self-test/package
  log=$root/.build/ios-check-self-test.log
  rm -rf "$copy"
  mkdir -p "$copy/Scripts/apple" "$copy/Tests"
  cp -R Scripts/apple/Backfill "$copy/Scripts/apple/"
  cp -R Tests/AppleSnippets Tests/CurityApps "$copy/Tests/"
  probes=()
  for file in "$copy"/Tests/AppleSnippets/*.swift "$copy"/Tests/CurityApps/*.swift; do
    line=$(grep -n '^import ' "$file" | tail -1 | cut -d: -f1 || true)
    line=${line:-0}
    sed -i "$((line + 1))i let appleCheckProbe${#probes[@]}: Int = \"a wrong line the check must find\"" "$file"
    probes+=("${file#"$copy"/}:$((line + 1))")
  done
  if (export HAAPI_APPLE_SNIPPETS_ONLY=1; check "$copy" "$scratch" "$log"); then
    echo "check-apple: self-test FAILED: the check passed the snippets and Curity apps with wrong lines (log: $log)" >&2
    exit 1
  fi
  for probe in "${probes[@]}"; do
    if errors_in "$log" | grep -q "^$copy/$probe:"; then
      echo "  found: $probe"
    else
      echo "check-apple: self-test FAILED: the wrong line at $probe went unseen (log: $log)" >&2
      exit 1
    fi
  done
  rm -rf "$copy"
  echo "check-apple: self-test passed: wrong lines in every Apple-only file, snippet and Curity app were each an error ($((SECONDS - started)) s)"
fi
echo "check-apple: 0 errors"
