#!/bin/bash
# Fuzzes the decoders that read network input, with libFuzzer (Swift's -sanitize=fuzzer).
#   Scripts/fuzz.sh [SECONDS] [HARNESS...]     default: 60 s each, every harness
#   FUZZ_CONFIGURATION=debug FUZZ_RUNS=20000 Scripts/fuzz.sh   (quicker to build; a fixed number of
#   inputs from a fixed seed, so the run is repeatable: what CI runs)
# Harnesses: haapi-response problem jose token-response json provider-numbers (Sources/FuzzHarnesses).
# Seeds: the project's fixtures and RFC vectors, the captured Curity responses in ../shared when
# present, and Fuzz/Regressions. A crash or a broken property stops the run with the input saved
# in .build-fuzz/crashes/HARNESS/: copy it to Fuzz/Regressions/HARNESS/ and fix the bug; the
# "Fuzz regressions" tests replay that directory from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(haapi-response problem jose token-response json provider-numbers)
BUILD=.build-fuzz
# release fuzzes faster; debug builds faster (CI, where each harness runs for a few seconds).
CONFIGURATION=${FUZZ_CONFIGURATION:-release}

echo "fuzz: building haapi-fuzz with -sanitize=fuzzer (first build of $BUILD takes several minutes)" >&2
swift build -c "$CONFIGURATION" --build-path "$BUILD" --product haapi-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING >&2
BINARY=$BUILD/$CONFIGURATION/haapi-fuzz

seed() {   # seed HARNESS DIR: the starting corpus of a harness
  local harness=$1 dir=$2
  mkdir -p "$dir"
  cp Fuzz/Regressions/"$harness"/* "$dir"/ 2>/dev/null || true
  case "$harness" in
    haapi-response|problem|json)
      cp Tests/HaapiSDKTests/Fixtures/*.json "$dir"/
      if [ -d ../shared/conformance/haapi/captured ]; then cp ../shared/conformance/haapi/captured/*.json "$dir"/; fi ;;
    jose)
      # Every compact JWS and JWK in the RFC vectors, one per file.
      python3 - "$dir" Tests/OAuthCoreTests/Vectors/*.json <<'PY'
import json, re, sys, hashlib
out = sys.argv[1]
def walk(v):
    if isinstance(v, dict):
        if "kty" in v: yield json.dumps(v)
        for x in v.values(): yield from walk(x)
    elif isinstance(v, list):
        for x in v: yield from walk(x)
    elif isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*", v):
        yield v
for path in sys.argv[2:]:
    for item in walk(json.load(open(path))):
        open(f"{out}/{hashlib.sha1(item.encode()).hexdigest()}", "w").write(item)
PY
      ;;
    token-response)
      printf '\000{"access_token":"a","token_type":"Bearer","expires_in":300,"refresh_token":"r","scope":"openid"}' > "$dir/success"
      printf '\001{"error":"invalid_grant","error_description":"expired"}' > "$dir/error"
      printf '\003<html>502</html>' > "$dir/html" ;;
    provider-numbers)
      # Fuzz/Regressions/provider-numbers holds the extreme numbers; these are ordinary answers.
      printf '\000{"device_code":"d","user_code":"BCDF-GHJK","verification_uri":"https://as.example/device","expires_in":600,"interval":5}' > "$dir/device"
      printf '\001{"access_token":"a","token_type":"Bearer","expires_in":300}' > "$dir/token"
      printf '\00230' > "$dir/retry-after"
      { printf '\003'; cat Tests/HaapiSDKTests/Fixtures/polling-pending.json; } > "$dir/polling" ;;
  esac
}

status=0
for harness in "${HARNESSES[@]}"; do
  corpus=$BUILD/corpus/$harness crashes=$BUILD/crashes/$harness
  seed "$harness" "$corpus"
  mkdir -p "$crashes"
  if [ -n "${FUZZ_RUNS:-}" ]; then
    limit=(-runs="$FUZZ_RUNS" -seed=1); echo "fuzz: $harness for $FUZZ_RUNS inputs (seed 1)" >&2
  else
    limit=(-max_total_time="$SECONDS_EACH"); echo "fuzz: $harness for $SECONDS_EACH s" >&2
  fi
  # SWIFT_BACKTRACE off: libFuzzer, not the Swift runtime, must catch the crash to save its input.
  if ! SWIFT_BACKTRACE=enable=no HAAPI_FUZZ_TARGET=$harness "$BINARY" "$corpus" "${limit[@]}" -max_len=65536 \
      -artifact_prefix="$crashes/" -print_final_stats=1 2> "$BUILD/$harness.log"; then
    echo "fuzz: $harness FAILED; inputs in $crashes; log $BUILD/$harness.log" >&2
    tail -30 "$BUILD/$harness.log" >&2
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$BUILD/$harness.log" | sed "s/^/fuzz: $harness /" >&2 || true
  fi
done
exit $status
