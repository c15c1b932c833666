#!/bin/bash
# Fails when a library target an iOS app adds depends, directly or through other targets, on
# SwiftNIO, AsyncHTTPClient, NIOSSL or swift-certificates (issue 14): those come only with
# OAuthTransportNIO. Reads `swift package describe`, so it needs no build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
def products(name, seen):
    target = targets[name]
    found = set(target.get("product_dependencies", []))
    for dependency in target.get("target_dependencies", []):
        if dependency not in seen:
            seen.add(dependency)
            found |= products(dependency, seen)
    return found
forbidden = ("NIO", "AsyncHTTPClient", "X509", "SwiftASN1")
failed = False
for name in ["OAuthCore", "HaapiDriver", "HaapiSDK", "HaapiUI", "OIDCClient"]:
    found = sorted(products(name, set()))
    bad = [p for p in found if p.startswith(forbidden)]
    line = name + ": " + ", ".join(found)
    if bad:
        line += "  <- not allowed: " + ", ".join(bad)
    print(line)
    failed |= bool(bad)
sys.exit(1 if failed else 0)
'
