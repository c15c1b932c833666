#!/bin/bash
# A headless browser for `haapi login --browser` and `haapi logout --end-session` against the
# Glewlwyd of these scripts: pass it as --browser-command; it is run with the URL as its last
# argument. For an authorization URL it does what a person does on the login page (authorize.sh:
# log in, consent); for an end_session URL what login.html?prompt=end_session does (end the OIDC
# and login sessions); then it goes where the provider sends the browser: the app's loopback listener.
# The cookie jar ($OP_BROWSER_JAR, default $OP_DIR/browser-cookies) keeps the login session between
# the two, as a browser would. With OP_BROWSER_PRINT=1 it prints where the provider sends the browser
# instead of going there: the URL an app would be opened with (a private-use scheme, a claimed https link).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 URL" >&2; exit 2; }
URL=${*: -1}
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${OP_BROWSER_JAR:-${OP_DIR:-/dev/shm/swift-haapi-op}/browser-cookies}
qparam() { local v; v=$(sed -n "s/.*[?&]$1=\([^&#]*\).*/\1/p" <<<"$2" | sed 's/+/ /g; s/%\([0-9A-Fa-f][0-9A-Fa-f]\)/\\x\1/g'); printf '%b' "$v"; }

case "$URL" in
  */end_session*)
    API=${URL%%/api/*}/api
    loc=$(curl -sS -o /dev/null -w '%{redirect_url}' -c "$JAR" -b "$JAR" "$URL")
    case "$loc" in *prompt=end_session*) ;; *) echo "browser: unexpected answer to end_session: $loc" >&2; exit 1 ;; esac
    sid=$(qparam sid "$loc"); plugin=$(qparam plugin "$loc"); next=$(qparam callback_url "$loc")
    curl -sSf -o /dev/null -b "$JAR" -c "$JAR" -X DELETE "$API/$plugin/session/$sid"
    curl -sSf -o /dev/null -b "$JAR" -c "$JAR" -X DELETE "$API/auth/" ;;
  *)
    next=$("$HERE/authorize.sh" "$URL" "$JAR") ;;
esac
if [ "${OP_BROWSER_PRINT:-0}" = 1 ]; then printf '%s\n' "$next"; else curl -sS -o /dev/null "$next"; fi
