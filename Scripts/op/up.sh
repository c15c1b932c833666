#!/bin/bash
# install + start + provision in one go. Reuses a running, provisioned instance with the same settings
# (same OP_DIR, OP_PORT and OP_DPOP_NONCE); otherwise stops it and starts a fresh one.
# Prints the path of op.env on stdout (progress goes to stderr).  env: see common.sh, provision.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
"$HERE/install.sh" >&2
ENVF="$OP_DIR/op.env"
reusable() {
  [ -f "$OP_DIR/provisioned" ] && [ -f "$ENVF" ] && [ -f "$OP_DIR/glewlwyd.pid" ] &&
  kill -0 "$(cat "$OP_DIR/glewlwyd.pid")" 2>/dev/null &&
  ( . "$ENVF"; [ "$OP_ISSUER" = "http://127.0.0.1:$OP_PORT/api/oidc" ] && [ "$OP_DPOP_NONCE" = "${1:-0}" ] && [ -n "${OP_DEEPLINK_REDIRECT_URI:-}" ] ) &&
  curl -sf -o /dev/null --max-time 2 "$OP_ISSUER/.well-known/openid-configuration"
}
if reusable "${OP_DPOP_NONCE:-0}"; then
  echo "up: reusing the running instance (pid $(cat "$OP_DIR/glewlwyd.pid"))" >&2
else
  "$HERE/stop.sh" >&2
  "$HERE/start.sh" >&2
  "$HERE/provision.sh" >&2
fi
echo "$ENVF"
