#!/bin/bash
# Headless user agent: does what a browser and Glewlwyd's login page would do for AUTHZ_URL and prints the
# final redirect (redirect_uri?code=...&state=...&iss=..., or ?error=...). AUTHZ_URL may also be a device
# login's verification_uri_complete (RFC 8628): then the final page is Glewlwyd's prompt=deviceComplete.
#   1. GET AUTHZ_URL            -> 302 to login.html?...&client_id=..&scope=..  (no session yet)
#   2. POST /api/auth/          -> password login (session cookie)
#   3. PUT /api/auth/grant/ID   -> consent to the requested scopes for the client
#   4. GET AUTHZ_URL&g_continue -> 302 to the client's redirect_uri
# usage: authorize.sh AUTHZ_URL [COOKIE_JAR]   (reuse a jar to keep the login session between calls)
# env: OP_USER (alice)  OP_PASSWORD (alice-password)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 AUTHZ_URL [COOKIE_JAR]" >&2; exit 2; }
AUTHZ=$1
if [ $# -ge 2 ]; then JAR=$2; else JAR=$(mktemp); trap 'rm -f "$JAR"' EXIT; fi
API=${AUTHZ%%/api/*}/api
qparam() {   # qparam NAME URL -> url-decoded value
  local v; v=$(sed -n "s/.*[?&]$1=\([^&#]*\).*/\1/p" <<<"$2")
  printf '%b' "$(sed 's/+/ /g; s/%\([0-9A-Fa-f][0-9A-Fa-f]\)/\\x\1/g' <<<"$v")"
}
get_location() {   # the Location as sent (curl's resolved form turns scheme:/path into scheme://path), resolved only when relative
  local headers resolved raw
  headers=$(mktemp)
  resolved=$(curl -sS -o /dev/null -D "$headers" -w '%{redirect_url}' -c "$JAR" -b "$JAR" "$1")
  raw=$(sed -n 's/^[Ll]ocation: *//p' "$headers" | tr -d '\r' | head -n 1)
  rm -f "$headers"
  if [[ "$raw" =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]]; then printf '%s' "$raw"; else printf '%s' "$resolved"; fi
}

loc=$(get_location "$AUTHZ")
case "$loc" in
  */login.html*) ;;
  "") echo "authorize: no redirect from $AUTHZ" >&2; exit 1 ;;
  *) printf '%s\n' "$loc"; exit 0 ;;   # already logged in and consented, or an error redirect
esac
client_id=$(qparam client_id "$loc"); scope=$(qparam scope "$loc")
curl -sSf -o /dev/null -c "$JAR" -b "$JAR" -H 'Content-Type: application/json' \
     -d "$(jq -cn --arg u "${OP_USER:-alice}" --arg p "${OP_PASSWORD:-alice-password}" '{username:$u,password:$p}')" "$API/auth/" \
  || { echo "authorize: login of ${OP_USER:-alice} failed" >&2; exit 1; }
curl -sSf -o /dev/null -c "$JAR" -b "$JAR" -X PUT -H 'Content-Type: application/json' \
     -d "$(jq -cn --arg s "$scope" '{scope:$s}')" "$API/auth/grant/$client_id" \
  || { echo "authorize: consent for $client_id ($scope) failed" >&2; exit 1; }
loc=$(get_location "$AUTHZ&g_continue")
case "$loc" in
  *prompt=deviceComplete*) printf '%s\n' "$loc"; exit 0 ;;   # a device login's verification page (RFC 8628): approved
  */login.html*) echo "authorize: still sent to the login page: $loc" >&2; exit 1 ;;
  "") echo "authorize: no redirect after login" >&2; exit 1 ;;
esac
printf '%s\n' "$loc"
