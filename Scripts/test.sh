#!/bin/bash
# Runs every test: builds the package and its tests while it starts the real OpenID Provider the
# integration tests use (installing it and the other tools the tests drive from Debian's packages on
# a fresh machine), then runs the tests (`swift test`; its arguments are this script's). Stops the
# provider afterwards.
# As root on Debian it installs the missing tools system-wide with apt-get (glewlwyd, tmux,
# qrencode, chromium-headless-shell, gnome-keyring, libsecret-tools) and says so first; as another
# user it uses what is installed, and the tests that need the rest fail saying what is missing.
# On macOS (no apt-get) it runs what needs no Debian package and says what it skips.
set -euo pipefail
cd "$(dirname "$0")/.."

# What an iOS app links: no SwiftNIO, AsyncHTTPClient, NIOSSL or swift-certificates.
Scripts/check-app-dependencies.sh

# What the tests need from outside the package is made ready in the background while the package
# builds (on a fresh machine, apt-get and pip take a minute or two that the build hides); its
# variables come back through a file, and its output, should it fail, is shown.
ready=$(mktemp) ready_log=$(mktemp)
stop_providers() {
  OP_DIR=/dev/shm/swift-haapi-op Scripts/op/stop.sh >/dev/null 2>&1 || true
  OP_DIR=/dev/shm/swift-haapi-op-nonce Scripts/op/stop.sh >/dev/null 2>&1 || true
}
trap 'stop_providers; rm -f "$ready" "$ready_log"' EXIT
prepare() {
  local op_env op_nonce_env authenticator
  # What needs Debian's packages (the real OpenID Provider, Chromium, GNOME Keyring) runs where
  # apt-get is; elsewhere (a Mac) those tests skip, and this says which and why.
  if command -v apt-get >/dev/null && [ "$(uname)" = Linux ]; then
    [ "$(id -u)" -ne 0 ] || echo "test.sh: running as root: the tools the tests drive that are missing are installed system-wide with apt-get (Debian's packages)" >&2
    apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null ||
      { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null; }; }
    # Two throw-away Glewlwyd instances: one plain, one that requires DPoP nonces.
    op_env=$(OP_PORT=4593 OP_DIR=/dev/shm/swift-haapi-op Scripts/op/up.sh)
    op_nonce_env=$(OP_PORT=4594 OP_DIR=/dev/shm/swift-haapi-op-nonce OP_DPOP_NONCE=1 Scripts/op/up.sh)
    echo "HAAPI_TEST_OP_ENV=$op_env"
    echo "HAAPI_TEST_OP_NONCE_ENV=$op_nonce_env"
    # tmux drives the interactive CLI test as a person would use the terminal.
    command -v tmux >/dev/null || apt_install tmux
    # qrencode draws BankID's QR code in the terminal (haapi login prints the link without it).
    command -v qrencode >/dev/null || apt_install qrencode
    # Chromium's headless shell renders `haapi preview`'s pages in the browser tests (screenshots,
    # layout and console checks). Called directly: /usr/bin's wrapper would outlive a killed browser.
    # Its version comes from bookworm-security, so stale package lists are refreshed and tried again.
    [ -x /usr/lib/chromium/chromium-headless-shell ] || apt_install chromium-headless-shell
    # Set, the browser tests fail rather than skip when the browser is missing.
    echo "HAAPI_TEST_BROWSER=/usr/lib/chromium/chromium-headless-shell"
    # The keyring test's own D-Bus session and GNOME Keyring, libsecret and its secret-tool.
    { command -v gnome-keyring-daemon && command -v secret-tool && command -v dbus-daemon; } >/dev/null ||
      apt_install gnome-keyring libsecret-1-0 libsecret-tools dbus
    echo "HAAPI_TEST_KEYRING=1"
  else
    echo "test.sh: $(uname) without apt-get: skipping the tests that need Debian's packages:" \
      "the real OpenID Provider (Glewlwyd), the Chromium page tests and the GNOME Keyring test." \
      "Install tmux and qrencode (Homebrew) for the terminal tests." >&2
  fi
  # The software authenticator of the passkey tests (soft-webauthn, from PyPI).
  authenticator=$(Scripts/webauthn/install.sh)
  echo "HAAPI_TEST_SOFT_AUTHENTICATOR=$authenticator"
}
( set -euo pipefail; prepare >"$ready" 2>"$ready_log" ) &
preparing=$!
if ! swift build --build-tests; then
  wait "$preparing" || true
  exit 1
fi
if ! wait "$preparing"; then
  cat "$ready_log" >&2
  echo "test.sh: FAILED: making ready what the tests need (above)" >&2
  exit 1
fi
cat "$ready_log" >&2
while IFS='=' read -r name value; do export "$name=$value"; done <"$ready"
# At most six tests at a time. Unbounded, every test starts at once, and the process's few
# executor threads queue each await behind hundreds of others: measured on 2 cores, one HTTP
# exchange with an in-process server took up to 12 s (and sometimes past the 30 s timeout),
# against 0.06-0.4 s with 4-8 tests at a time, for the same total time (about 115 s).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}"
# CI shows the end of the output: the failures are repeated there, after the summary.
log=$(mktemp)
set +e
swift test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "== what failed (repeated from above) =="
  grep -E '^✘|: error: |Fatal error|signal code' "$log" | grep -v '^✘ Test run with' | tail -n 40 || true
fi
rm -f "$log"
exit "$status"
