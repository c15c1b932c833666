#!/bin/bash
# swift-format (the toolchain's `swift format`, configured by .swift-format: 140 columns, four
# spaces) over the package's Swift files, except the seeds' and Curity's apps' code, which is kept
# as it was printed (Tests/AppleSnippets, Tests/CurityApps, Tests/SeedSnippetTests/Seed00*).
#
#   Scripts/format.sh          formats the files in place
#   Scripts/format.sh --check  formats nothing: fails on any line the formatter would change or any
#                              rule it reports (CI runs this)
#
# Public documentation is not among its rules: Scripts/check-docs.py checks more than swift-format's
# rule does (a public protocol's requirements, a public enum's cases, the members of a public
# extension and `open` members, which that rule lets pass).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift' | grep -vE '^Tests/(AppleSnippets|CurityApps|SeedSnippetTests/Seed00[0-9])/')
if [ "${1:-}" = --check ]; then
  swift format lint --strict --parallel "${files[@]}"
  echo "format: ${#files[@]} files as swift-format writes them, no rule reported"
else
  swift format format --in-place --parallel "${files[@]}"
fi
