#!/bin/bash
# Fails when a library target an iOS app adds depends, directly or through other targets, on
# SwiftNIO, AsyncHTTPClient, NIOSSL or swift-certificates (issue 14): those come only with
# OAuthTransportNIO. Reads `swift package dump-package` (no build needed) and follows only the
# dependencies that apply on iOS: HaapiSDK's default transport is OAuthTransportNIO elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-package 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
def on_ios(condition):
    return condition is None or "ios" in (condition.get("platformNames") or ["ios"])
def products(name, seen):
    found = set()
    for dependency in targets[name]["dependencies"]:
        kind, value = next(iter(dependency.items()))
        condition = value[-1] if kind != "byName" or len(value) > 1 else None
        if not on_ios(condition):
            continue
        if kind != "product" and value[0] in targets:
            if value[0] not in seen:
                seen.add(value[0])
                found |= {value[0]} | products(value[0], seen)
        else:
            found.add(value[0])
    return found
forbidden = ("NIO", "AsyncHTTPClient", "X509", "SwiftASN1", "OAuthTransportNIO")
failed = False
for name in ["OAuthCore", "OAuthTransportURLSession", "HaapiDriver", "HaapiSDK", "HaapiUI", "OIDCClient"]:
    found = sorted(products(name, set()))
    bad = [p for p in found if p.startswith(forbidden)]
    line = name + " on iOS: " + ", ".join(found)
    if bad:
        line += "  <- not allowed: " + ", ".join(bad)
    print(line)
    failed |= bool(bad)
sys.exit(1 if failed else 0)
'
