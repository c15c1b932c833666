#!/bin/bash
# Fails when text could reach a terminal or a log line without PrintableText (OAuthCore): in the
# command line (Sources/HaapiCLI) and the development server (Sources/HaapiDevServer), only
# Stderr/Stdout (HaapiCLI/Support/ExitCodes.swift) write to the terminal, only ServerLog and
# DevServerConfiguration.log write the server's log, and all of them take PrintableText, which
# neutralises every control character of text from outside once. `PrintableText(own:)` (text the
# program made itself, kept as it is) is allowed only where listed below, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

# pattern | the files where it may appear | why
rules=(
  '\bprint\(|Swift\.print\(|\bfputs\(|\bputs\(|\bdump\(|FileHandle\.standard(Output|Error)|STDOUT_FILENO\)?, *[a-z]|write\(STD(OUT|ERR)' \
  'Sources/HaapiCLI/Support/ExitCodes.swift' \
  'Stderr and Stdout are the way out, and they take only PrintableText'
  'Logger\(label:' \
  'Sources/HaapiDevServer/Support/ServerLog.swift Sources/HaapiDevServer/DevServer.swift' \
  'ServerLog wraps the one Logger; DevServer.swift gives Hummingbird its own logger (warnings of the HTTP server itself)'
  '\.requestLog\?\(|requestLog\?\(' \
  'Sources/HaapiDevServer/ServerState.swift' \
  'DevServerConfiguration.log(_: PrintableText) is the way to the request log'
  'PrintableText\(own:' \
  'Sources/HaapiCLI/Login/Terminal.swift Sources/HaapiCLI/InspectCommand.swift Sources/HaapiCLI/Haapi.swift Sources/HaapiCLI/Support/ExitCodes.swift Sources/HaapiCLI/Support/Texts.swift' \
  'the erase-line sequence; inspect'"'"'s lines, each already made safe; the completion script, the help and the version ArgumentParser makes from our own commands; the string tables'"'"' texts (our words, no app table), filled with arguments that are PrintableText already'
)

failures=0
for ((i = 0; i < ${#rules[@]}; i += 3)); do
  pattern=${rules[i]} allowed=" ${rules[i + 1]} "
  while IFS= read -r hit; do
    file=${hit%%:*}
    [[ "$allowed" == *" $file "* ]] && continue
    echo "check-output: $hit"
    echo "  text from outside could reach the terminal or the log here without PrintableText (${rules[i + 2]})"
    failures=$((failures + 1))
  done < <(grep -rnP --include='*.swift' "$pattern" Sources/HaapiCLI Sources/HaapiDevServer | grep -vP '^[^:]+:\d+:\s*///' || true)
done
if [ "$failures" -gt 0 ]; then
  echo "check-output: $failures places write text without PrintableText" >&2
  exit 1
fi
echo "check-output: the command line and the development server write only PrintableText ($(grep -rc 'PrintableText' Sources/HaapiCLI Sources/HaapiDevServer | awk -F: '{s += $2} END {print s}') uses)"
