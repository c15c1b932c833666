#!/bin/bash
# Fuzzes the decoders that read network input and the files the command line keeps, and what
# numbers from outside become, with libFuzzer (Swift's -sanitize=fuzzer).
#   Scripts/fuzz.sh [SECONDS] [HARNESS...]     default: 60 s each, every harness
#   FUZZ_CONFIGURATION=debug FUZZ_RUNS=20000 Scripts/fuzz.sh   (quicker to build; a fixed number of
#   inputs from a fixed seed, so the run is repeatable: what CI runs)
#   Scripts/fuzz.sh --long [HARNESS...]   depth: at least FUZZ_LONG_RUNS (1000000) inputs each, in
#   release. It goes on past crashes (libFuzzer's -fork=1 -ignore_crashes=1), so that one crash
#   hides neither the next nor the count, and prints per harness the inputs run, the time and
#   each distinct crash (where it trapped, how many inputs did); it fails when any crashed. A
#   harness stops after FUZZ_LONG_SECONDS (10800) even short of its inputs, when crashes keep
#   cutting its jobs short.
# Harnesses: haapi-response problem jose token-response json provider-numbers polling-countdown
# profile-config stored-tokens dbus-message theme-plist asset-contents (Sources/FuzzHarnesses).
# Seeds: the project's fixtures and RFC vectors, the captured Curity responses in ../shared when
# present, ordinary and extreme values (the seed function below), and Fuzz/Regressions. A crash
# or a broken property stops the run with the input saved in .build-fuzz/crashes/HARNESS/ (or
# under FUZZ_BUILD_PATH): copy it to Fuzz/Regressions/HARNESS/ and fix the bug; the "Fuzz
# regressions" tests replay that directory from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
LONG_RUNS=
if [ "${1:-}" = --long ]; then
  LONG_RUNS=${FUZZ_LONG_RUNS:-1000000} LONG_SECONDS=${FUZZ_LONG_SECONDS:-10800}
  shift
else
  SECONDS_EACH=${1:-60}
  shift || true
fi
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(haapi-response problem jose token-response json provider-numbers polling-countdown profile-config stored-tokens
  dbus-message theme-plist asset-contents)
# FUZZ_BUILD_PATH: CI gives the test build's folder, whose C libraries (BoringSSL) then serve
# again; only the Swift modules are compiled anew, with the fuzzer.
BUILD=${FUZZ_BUILD_PATH:-.build-fuzz}
# release fuzzes faster; debug builds faster (CI, where each harness runs for a few seconds).
CONFIGURATION=${FUZZ_CONFIGURATION:-release}
[ -z "$LONG_RUNS" ] || CONFIGURATION=release

echo "fuzz: building haapi-fuzz with -sanitize=fuzzer (first build of $BUILD takes several minutes)" >&2
# HAAPI_FUZZ=1: the package's own modules instrumented, haapi-fuzz linked with libFuzzer (Package.swift).
HAAPI_FUZZ=1 swift build -c "$CONFIGURATION" --build-path "$BUILD" --product haapi-fuzz >&2
BINARY=$BUILD/$CONFIGURATION/haapi-fuzz

# Numbers past every edge a conversion has: Int's limits and one past, -1, 2^53+1 (the first
# integer a Double cannot hold), huge and tiny exponents (1e999 is infinity to a Double), and
# numbers as text, which providers send too.
EXTREMES=(0 -1 1 9223372036854775807 -9223372036854775808 9223372036854775808 9007199254740993 1e308 -1e308 1e999 4.9e-324 119.5
  '"NaN"' '"Infinity"' '"-0"' '"9223372036854775807"' '"-9223372036854775808"' '"1e308"' '" 42 "' '"0x10"')

put() {   # put FILE BYTE TEXT: a seed whose first byte chooses what the harness does with TEXT
  { printf "\\$(printf %03o "$2")"; printf '%s' "$3"; } > "$1"
}

seed() {   # seed HARNESS DIR: the starting corpus of a harness
  local harness=$1 dir=$2 n
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
      # Ordinary answers; then each extreme as each number (Fuzz/Regressions holds those that broke something).
      put "$dir/device" 0 '{"device_code":"d","user_code":"BCDF-GHJK","verification_uri":"https://as.example/device","expires_in":600,"interval":5}'
      put "$dir/token" 1 '{"access_token":"a","token_type":"Bearer","expires_in":300}'
      put "$dir/retry-after" 2 '30'
      { printf '\003'; cat Tests/HaapiSDKTests/Fixtures/polling-pending.json; } > "$dir/polling"
      put "$dir/jwt" 4 '{"iss":"https://as.example","exp":1750000300,"iat":1750000000,"nbf":1749999990,"auth_time":1749999000}'
      n=0
      for x in "${EXTREMES[@]}"; do
        n=$((n + 1))
        put "$dir/device-expires-$n" 0 '{"device_code":"d","user_code":"u","verification_uri":"https://as.example/device","expires_in":'"$x"'}'
        put "$dir/device-interval-$n" 0 '{"device_code":"d","user_code":"u","verification_uri":"https://as.example/device","expires_in":600,"interval":'"$x"'}'
        put "$dir/token-$n" 1 '{"access_token":"a","token_type":"DPoP","expires_in":'"$x"'}'
        put "$dir/retry-after-$n" 2 "${x//\"/}"
        put "$dir/jwt-$n" 4 '{"exp":'"$x"',"iat":'"$x"',"nbf":'"$x"',"auth_time":'"$x"',"updated_at":'"$x"'}'
      done ;;
    polling-countdown)
      # The first byte is how long the step has been shown (FuzzHarness.elapsedSeconds).
      put "$dir/pending" 0 '{"status":"pending","recipientOfCommunication":"+46 70 *** ** 58","maxWaitTime":"180","maxWaitRemainingTime":"143","interval":"2500"}'
      put "$dir/minutes" 7 '{"status":"pending","maxWaitRemainingTime":600}'
      put "$dir/done" 1 '{"status":"done"}'
      n=0
      for x in "${EXTREMES[@]}"; do
        n=$((n + 1))
        put "$dir/remaining-$n" $((n % 11)) '{"status":"pending","maxWaitTime":'"$x"',"maxWaitRemainingTime":'"$x"'}'
        put "$dir/interval-$n" $((n % 11)) '{"status":"pending","maxWaitRemainingTime":"60","interval":'"$x"'}'
      done ;;
    profile-config)
      printf '%s' '{"issuer":"https://op.example","clientID":"my-app","redirectUri":"haapi://callback","scope":"openid profile","dpop":true,"apiOrigins":["https://api.example:8443"]}' > "$dir/config"
      printf '%s' '{"clientID":"c","redirectUri":"r","strategy":"secret","clientSecret":"s","baseURL":"https://idsvr.example","tokenEndpoint":"https://idsvr.example/token","authorizationEndpoint":"https://idsvr.example/authorize","login":"browser"}' > "$dir/endpoints"
      printf '%s' '{"issuer":"https://op.example","clientId":"misspelt","redirect_uri":"x"}' > "$dir/misspelt"
      printf '%s' '{"clientID":"c","redirectUri":"r","dpop":"yes","apiOrigins":"https://api.example"}' > "$dir/wrong-types"
      # Terminal escapes and a bidirectional override, as JSON escapes, in a value and in a key.
      printf '%s' '{"clientID":"c","redirectUri":"r","issuer":"\u001b[31mhttps://op.example\u202e"}' > "$dir/escapes"
      printf '%s' '{"clientID":"c","\u001b]0;title\u0007":"r"}' > "$dir/escape-key"
      n=0
      for x in "${EXTREMES[@]}"; do
        n=$((n + 1))
        printf '%s' '{"clientID":'"$x"',"redirectUri":"r","dpop":'"$x"',"apiOrigins":['"$x"']}' > "$dir/numbers-$n"
      done ;;
    stored-tokens)
      local key='{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cLYjGDyBx4yNDKmPXAnRwE"}'
      local session='"issuer":"https://op.example","clientID":"c","accessToken":"a","refreshToken":"r","scope":"openid"'
      # Each form a version wrote: 2 (ISO 8601), 1 as the CLI wrote it (ISO 8601, fractional) and as OIDCClient did (seconds since 2001).
      printf '%s' '{"version":2,'"$session"',"tokenType":"DPoP","accessTokenExpiresAt":"2025-06-15T15:06:40Z","dpopKey":'"$key"'}' > "$dir/current"
      printf '%s' '{'"$session"',"tokenType":"Bearer","accessTokenExpiresAt":"2025-06-15T15:06:40.250Z"}' > "$dir/cli-version-1"
      printf '%s' '{'"$session"',"tokenType":"Bearer","accessTokenExpiresAt":771692800}' > "$dir/oidc-version-1"
      printf '%s' '{"version":2,'"$session"',"tokenType":"DPoP"}' > "$dir/dpop-without-key"
      n=0
      for x in "${EXTREMES[@]}" '"9999-12-31T23:59:59Z"' '"0000-01-01T00:00:00Z"' '"+275760-09-13T00:00:00Z"' '"-4712-01-01T12:00:00Z"'; do
        n=$((n + 1))
        printf '%s' '{"version":2,'"$session"',"tokenType":"Bearer","accessTokenExpiresAt":'"$x"'}' > "$dir/expiry-$n"
        printf '%s' '{"version":'"$x"','"$session"',"tokenType":"Bearer"}' > "$dir/version-$n"
      done ;;
    dbus-message)
      # The messages jeepney (a Python D-Bus implementation) wrote for the wire-format tests, as bytes.
      python3 - "$dir" Tests/SecretServiceTests/Vectors/dbus-jeepney.json <<'PY'
import json, sys
for name, hex in json.load(open(sys.argv[2])).items():
    if isinstance(hex, str) and all(c in "0123456789abcdef" for c in hex):
        open(f"{sys.argv[1]}/{name}", "wb").write(bytes.fromhex(hex))
PY
      ;;
    theme-plist)
      # The kit's own theme, and a few small ones (a section's
      # name and a font that try to end the style element among them).
      cp Sources/HaapiUI/Resources/Theme.plist "$dir/kit.plist"
      printf '%s' '<?xml version="1.0"?><plist version="1.0"><dict><key>ActionableButton.Primary</key><dict><key>backgroundColorName</key><string>hui_error_immutable</string><key>cornerRadius</key><real>9</real></dict></dict></plist>' > "$dir/button.plist"
      printf '%s' '<?xml version="1.0"?><plist version="1.0"><dict><key>huiTextField</key><string>x"]{}&lt;/style&gt;</string><key>fontName</key><string>&lt;/style&gt;</string></dict></plist>' > "$dir/hostile.plist" ;;
    asset-contents)
      printf '%s' '{"colors":[{"idiom":"universal","color":{"color-space":"srgb","components":{"red":"0xFF","green":"0.500","blue":"128","alpha":"1.000"}}},{"idiom":"universal","appearances":[{"appearance":"luminosity","value":"dark"}],"color":{"components":{"red":"0x00","green":"0x00","blue":"0x00"}}}],"info":{"author":"xcode","version":1}}' > "$dir/colorset"
      printf '%s' '{"images":[{"idiom":"universal","filename":"logo.png","scale":"1x"},{"idiom":"universal","filename":"logo@2x.png","scale":"2x"},{"idiom":"universal","filename":"logo-dark.png","scale":"2x","appearances":[{"appearance":"luminosity","value":"dark"}]}],"info":{"author":"xcode","version":1}}' > "$dir/imageset"
      printf '%s' '{"images":[{"idiom":"universal","filename":"../../secret.png"},{"filename":"icon.pdf"}]}' > "$dir/outside" ;;
  esac
}

# trapped HARNESS INPUT: where the harness traps on INPUT, replayed alone: the first frame of the
# package's code in the Swift runtime's backtrace (libFuzzer's signal handlers off, so that the
# runtime's runs), and its message: a trap's reason, or the properties a harness found broken.
trapped() {
  SWIFT_BACKTRACE=enable=yes,interactive=no,color=no HAAPI_FUZZ_TARGET=$1 "$BINARY" "$2" \
      -handle_ill=0 -handle_abrt=0 -handle_segv=0 -handle_bus=0 -handle_fpe=0 2>&1 |
    awk '/Fatal error:/ && message == "" { message = $0; sub(/^.*Fatal error: /, "", message) }
      / in haapi-fuzz/ && frame == "" { frame = $0; sub(/^.*0x[0-9a-f]+ /, "", frame); sub(/ \+ [0-9]+ in haapi-fuzz/, "", frame)
        sub(/ at \/\/<compiler-generated>/, "", frame); sub(/ at \/.*\/(Sources|Fuzz)\//, " at ", frame); sub(/:[0-9]+$/, "", frame) }
      END { print (frame == "" ? "?" : frame) ": " (message == "" ? "no trap when replayed" : substr(message, 1, 300)) }'
}

# long HARNESS CORPUS CRASHES: the --long run of one harness, and its report.
long() {
  local harness=$1 corpus=$2 crashes=$3 started log=$BUILD/$1.log runs found=()
  touch "$BUILD/$harness.started"
  started=$(date +%s)
  echo "fuzz: $harness for $LONG_RUNS inputs, past crashes" >&2
  SWIFT_BACKTRACE=enable=no HAAPI_FUZZ_TARGET=$harness "$BINARY" "$corpus" -runs="$LONG_RUNS" -max_total_time="$LONG_SECONDS" \
    -fork=1 -ignore_crashes=1 -max_len=65536 -artifact_prefix="$crashes/" 2> "$log" || true
  # The parent's last "#RUNS: cov: ..." line counts the inputs its jobs ran (not the last ones of a job that crashed).
  runs=$(grep -oE '^#[0-9]+: cov' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  mapfile -t found < <(find "$crashes" -type f -newer "$BUILD/$harness.started" | sort)
  echo "fuzz: $harness: ${runs:-0} inputs in $(( $(date +%s) - started )) s, ${#found[@]} crashing inputs" >&2
  # A run that fuzzed nothing (the harness unknown, the binary refused its flags) is a failure, not a pass.
  if [ "${runs:-0}" -eq 0 ]; then
    echo "fuzz: $harness FAILED: no input ran; the log's end ($log):" >&2
    tail -15 "$log" >&2
    return 1
  fi
  [ "${runs:-0}" -ge "$LONG_RUNS" ] || echo "fuzz: $harness: stopped by the time limit ($LONG_SECONDS s) short of $LONG_RUNS inputs" >&2
  [ ${#found[@]} -gt 0 ] || return 0
  for input in "${found[@]}"; do trapped "$harness" "$input"; done | sort | uniq -c | sed "s/^ */fuzz: $harness crash: /" >&2
  echo "fuzz: $harness: the inputs are in $crashes, the log in $log" >&2
  return 1
}

status=0
for harness in "${HARNESSES[@]}"; do
  corpus=$BUILD/corpus/$harness crashes=$BUILD/crashes/$harness
  seed "$harness" "$corpus"
  mkdir -p "$crashes"
  if [ -n "$LONG_RUNS" ]; then
    long "$harness" "$corpus" "$crashes" || status=1
    continue
  fi
  if [ -n "${FUZZ_RUNS:-}" ]; then
    runs=$FUZZ_RUNS
    # A theme's input draws the kit's style sheet anew (some 60 styles read): a tenth as many
    # inputs keeps CI's fuzz step in its minutes; --long runs it as deep as the others.
    [ "$harness" != theme-plist ] || runs=$((FUZZ_RUNS / 10))
    limit=(-runs="$runs" -seed=1); echo "fuzz: $harness for $runs inputs (seed 1)" >&2
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
    executed=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$BUILD/$harness.log" | grep -oE '[0-9]+$' || true)
    if [ "${executed:-0}" -eq 0 ]; then
      echo "fuzz: $harness FAILED: no input ran (log $BUILD/$harness.log)" >&2
      tail -15 "$BUILD/$harness.log" >&2
      status=1
    fi
  fi
done
exit $status
