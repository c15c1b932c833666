#!/bin/bash
# Fails when text could reach a terminal or a log line without PrintableText (OAuthCore), anywhere
# in Sources/: every module, the Apple-only files too. Only Stderr and Stdout
# (OAuthCore/Logging/StandardStreams.swift) write to the standard streams, and they take only
# PrintableText, which neutralises every control character of text from outside once; the
# command line, HaapiLogger's console sink and the benchmarks' report all go through them. Only
# ServerLog and DevServerConfiguration.log write the development server's log. `PrintableText(own:)`
# (text the program made itself, kept as it is) is allowed only where listed below, with its reason.
#
#   Scripts/check-output.sh              the check
#   Scripts/check-output.sh --self-test  proves the check real: a copy of Sources/ with one
#                                        planted write of each kind, spread over the modules (an
#                                        Apple-only file among them), must be reported at each of
#                                        those lines and nowhere else; then the check itself runs
set -euo pipefail
cd "$(dirname "$0")/.."

# pattern | the files where it may appear | why
rules=(
  '\b(print|debugPrint|dump|puts|fputs|fwrite|fprintf|printf|vprintf|dprintf|putchar|perror|NSLog|NSLogv|os_log)\s*\(|FileHandle\.standard(Output|Error)\b|FileHandle\(\s*fileDescriptor:|\b(write|writev|fdopen)\(\s*(1|2|STDOUT_FILENO|STDERR_FILENO)\b|\b(stdout|stderr)\b' \
  'Sources/OAuthCore/Logging/StandardStreams.swift' \
  'Stderr and Stdout are the way out, and they take only PrintableText'
  'Logger\(label:|StreamLogHandler|Logger\(subsystem:|\bOSLog\b' \
  'Sources/HaapiDevServer/Support/ServerLog.swift Sources/HaapiDevServer/DevServer.swift' \
  'ServerLog wraps the one Logger; DevServer.swift gives Hummingbird its own logger (warnings of the HTTP server itself); no other logger writes anywhere'
  '\.requestLog\?\(|requestLog\?\(' \
  'Sources/HaapiDevServer/ServerState.swift' \
  'DevServerConfiguration.log(_: PrintableText) is the way to the request log'
  'PrintableText\(own:' \
  'Sources/HaapiCLI/Login/Terminal.swift Sources/HaapiCLI/InspectCommand.swift Sources/HaapiCLI/Haapi.swift Sources/HaapiCLI/Support/ExitCodes.swift Sources/HaapiCLI/Support/Texts.swift' \
  'the erase-line sequence; inspect'"'"'s lines, each already made safe; the completion script, the help and the version ArgumentParser makes from our own commands; the string tables'"'"' texts (our words, no app table), filled with arguments that are PrintableText already'
)

# scan ROOT: prints each finding as `check-output: PATH:LINE:TEXT`, then its reason.
scan() {
  local root=$1 i pattern allowed hit file
  for ((i = 0; i < ${#rules[@]}; i += 3)); do
    pattern=${rules[i]} allowed=" ${rules[i + 1]} "
    while IFS= read -r hit; do
      file=${hit%%:*}
      [[ "$allowed" == *" $file "* ]] && continue
      echo "check-output: $hit"
      echo "  text from outside could reach the terminal or the log here without PrintableText (${rules[i + 2]})"
    done < <(cd "$root" && grep -rnP --include='*.swift' "$pattern" Sources | grep -vP '^[^:]+:\d+:\s*//' || true)
  done
}
findings() { grep -c '^check-output: ' <<<"$1" || true; }

if [ "${1:-}" = --self-test ]; then
  copy=$(mktemp -d)
  trap 'rm -rf "$copy"' EXIT
  cp -r Sources "$copy/Sources"
  apple=$(grep -rlP '^#if .*canImport\(UIKit\)' Sources/HaapiUI --include='*.swift' | head -1)
  # FILE | a line that writes past PrintableText: one of each kind the rules name.
  plants=(
    "Sources/OAuthCore/Logging/LogSink.swift|func plantA(_ s: String) { debugPrint(s) }"
    "Sources/OAuthCore/Session/TokenSession.swift|func plantB(_ s: String) { FileHandle(fileDescriptor: STDERR_FILENO).write(Data(s.utf8)) }"
    "Sources/HaapiSDK/Models/JSONReader.swift|func plantC(_ s: String) { _ = s.withCString { fwrite(\$0, 1, strlen(\$0), stderr) } }"
    "Sources/HaapiDriver/HaapiError.swift|func plantD(_ s: String) { _ = s.withCString { write(2, \$0, strlen(\$0)) } }"
    "$apple|func plantE(_ s: String) { NSLog(\"%@\", s) }"
    "Sources/OIDCClient/Login/OIDCClient.swift|func plantF(_ s: String) { print(s) }"
    "Sources/HaapiCLI/Support/ExitCodes.swift|func plantG(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }"
    "Sources/HaapiPreview/ScreenPage.swift|func plantH(_ s: String) { _ = write(STDOUT_FILENO, s, s.utf8.count) }"
    "Sources/HaapiUI/Screens/ScreenBuilder.swift|func plantI(_ s: String) { os_log(\"%{public}@\", s) }"
    "Sources/HaapiDevServer/ServerState.swift|func plantJ(_ s: String) { var l = Logger(label: s); l.logLevel = .info }"
    "Sources/Benchmarks/main.swift|func plantK(_ s: String) { dump(s) }"
    "Sources/HaapiCLI/Commands/TokenCommand.swift|func plantL(_ s: String) -> PrintableText { PrintableText(own: s) }"
  )
  expected=()
  for plant in "${plants[@]}"; do
    file=${plant%%|*} line=${plant#*|}
    [ -f "$copy/$file" ] || { echo "check-output: self-test FAILED: $file is gone; choose another file to plant in" >&2; exit 1; }
    # Inside the Apple-only region of an Apple-only file (which a Linux build never compiles), else at the end.
    at=$(grep -nP '^#if .*canImport\(UIKit\)' "$copy/$file" | head -1 | cut -d: -f1 || true)
    if [ -n "$at" ]; then
      sed -i "${at}r /dev/stdin" "$copy/$file" <<<"$line"
      expected+=("$file:$((at + 1))")
    else
      printf '%s\n' "$line" >>"$copy/$file"
      expected+=("$file:$(wc -l <"$copy/$file")")
    fi
  done
  report=$(scan "$copy")
  found=$(findings "$report")
  for place in "${expected[@]}"; do
    if grep -q "^check-output: $place:" <<<"$report"; then echo "  found: $place"; else
      echo "check-output: self-test FAILED: the planted write at $place went unseen" >&2
      exit 1
    fi
  done
  if [ "$found" -ne "${#expected[@]}" ]; then
    echo "check-output: self-test FAILED: $found findings for ${#expected[@]} planted lines:" >&2
    echo "$report" >&2
    exit 1
  fi
  echo "check-output: self-test passed: each of ${#expected[@]} planted writes was reported, in $(printf '%s\n' "${expected[@]}" | cut -d/ -f2 | sort -u | wc -l) modules"
fi

report=$(scan .)
failures=$(findings "$report")
if [ "$failures" -gt 0 ]; then
  echo "$report"
  echo "check-output: $failures places write text without PrintableText" >&2
  exit 1
fi
echo "check-output: Sources/ (all $(find Sources -name '*.swift' | wc -l) files) writes to the terminal and the logs only PrintableText ($(grep -rc 'PrintableText' Sources | awk -F: '{s += $2} END {print s}') uses)"
