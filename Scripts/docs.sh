#!/bin/bash
# Builds the DocC documentation of every library product with swift-docc-plugin, warnings as
# errors: a link to a symbol that does not exist, an undocumented parameter or an ambiguous
# name fails the build. Combined documentation: each target's archive is built after those of
# the targets it depends on, so its comments link to their symbols by absolute path
# (``/OAuthCore/HTTPTransport``), and the archives are merged into one,
# .build/plugins/Swift-DocC/outputs/swift-haapi.doccarchive (each target's own in intermediates/).
#   Scripts/docs.sh                  all products, in .build (CI: the tests' build folder)
#   DOCS_BUILD_PATH=.build-docs ...  another build folder (to build docs while tests run)
#   Scripts/docs.sh OAuthCore ...    only these targets; name with a target the targets its
#                                    links reach (Scripts/docs.sh OAuthCore HaapiDriver HaapiSDK)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(OAuthCore HaapiDriver HaapiSDK HaapiUI OIDCClient OAuthTransportNIO OAuthTransportURLSession HaapiDevServer)
fi
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
# --disable-sandbox: the plugin writes the archives into the package's build folder.
swift package --scratch-path "${DOCS_BUILD_PATH:-.build}" --disable-sandbox \
    generate-documentation "${arguments[@]}" --warnings-as-errors --enable-experimental-combined-documentation
echo "docs: ${targets[*]}: no warning"
