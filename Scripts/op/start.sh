#!/bin/bash
# Start a fresh Glewlwyd instance in the background on 127.0.0.1:$OP_PORT with a new SQLite database
# in $OP_DIR; returns once it answers, or fails with its log.
# env: OP_PORT (4593)  OP_DIR (/dev/shm/swift-haapi-op)  OP_LOG_LEVEL (INFO)
set -euo pipefail
. "$(dirname "$0")/common.sh"
mkdir -p "$OP_DIR"; OP_DIR=$(cd "$OP_DIR" && pwd)
PIDF="$OP_DIR/glewlwyd.pid"; LOG="$OP_DIR/glewlwyd.log"

if [ -f "$PIDF" ] && kill -0 "$(cat "$PIDF")" 2>/dev/null; then
  echo "start: already running (pid $(cat "$PIDF")); run stop.sh first" >&2; exit 1
fi
if curl -s -o /dev/null --max-time 1 "$OP_URL/"; then
  echo "start: something already listens on $OP_URL" >&2; exit 1
fi
command -v glewlwyd >/dev/null || { echo "start: glewlwyd is not installed (run install.sh)" >&2; exit 1; }

# Fresh state every time: schema + admin user (admin/password) + scopes g_admin, g_profile, openid
# + database-backed user and client modules, from the package's dbconfig data.
rm -f "$OP_DIR"/glewlwyd.db* "$OP_DIR/op.env" "$OP_DIR/op.json" "$OP_DIR/provisioned"
sqlite3 "$OP_DIR/glewlwyd.db" < /usr/share/dbconfig-common/data/glewlwyd/install/sqlite3

cat > "$OP_DIR/glewlwyd.conf" <<CONF
port=$OP_PORT
bind_address="127.0.0.1"
external_url="$OP_URL"
api_prefix="api"
login_url="login.html"
static_files_path="/usr/share/glewlwyd/webapp/"
log_mode="console"
log_level="${OP_LOG_LEVEL:-INFO}"
# plain http on loopback: the session cookie must not be Secure, and its domain is the host we use
cookie_domain="127.0.0.1"
cookie_secure=0
session_key="GLEWLWYD2_SESSION_ID"
session_expiration=2419200
# scripts use an API key ("Authorization: token ...") on the admin API
admin_session_authentication="cookie,api_key"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
# (no use_secure_connection line at all: 2.7.5 then wants TLS key files even when it says false)
database = { type = "sqlite3"; path = "$OP_DIR/glewlwyd.db"; };
CONF

# setsid: its own session/process group, so it survives the caller and stop.sh ends exactly this PID
setsid glewlwyd --config-file="$OP_DIR/glewlwyd.conf" >"$LOG" 2>&1 </dev/null &
echo $! > "$PIDF"

for _ in $(seq 1 150); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$OP_URL/config" || true)" = 200 ]; then
    echo "start: glewlwyd up on $OP_URL (pid $(cat "$PIDF"), dir $OP_DIR)"; exit 0
  fi
  if ! kill -0 "$(cat "$PIDF")" 2>/dev/null; then
    echo "start: glewlwyd exited; its log ($LOG):" >&2; cat "$LOG" >&2; rm -f "$PIDF"; exit 1
  fi
  sleep 0.1
done
echo "start: no answer from $OP_URL within 15 s; its log ($LOG):" >&2; cat "$LOG" >&2
kill "$(cat "$PIDF")" 2>/dev/null || true; rm -f "$PIDF"; exit 1
