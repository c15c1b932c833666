#!/bin/bash
# Smoke test of a provisioned instance: the OP features the integration tests rely on. Prints PASS/FAIL
# lines; exit status 1 if anything failed. Works with and without OP_DPOP_NONCE=1.
# env: OP_DIR (/dev/shm/swift-haapi-op)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"; . "$OP_DIR/op.env"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
FAILS=0 TOK=$OP_TOKEN_ENDPOINT CI=$OP_CONF_CLIENT_ID CS=$OP_CONF_CLIENT_SECRET
check() { if [ "$2" = "$3" ]; then echo "PASS $1"; else echo "FAIL $1: got '$2', want '$3'"; FAILS=$((FAILS+1)); fi; }
A_TYPE=urn:ietf:params:oauth:client-assertion-type:jwt-bearer
assertion_claims() { local now; now=$(date +%s)
  jq -cn --arg c "$1" --arg aud "$TOK" --arg jti "$(openssl rand -hex 16)" --argjson now "$now" '{iss:$c,sub:$c,aud:$aud,jti:$jti,iat:$now,exp:($now+60)}'; }
NONCE=""
# Glewlwyd keeps one nonce per client, accepts it for about oauth-dpop-nonce-counter uses and then sends the next one
# in a DPoP-Nonce header (on a 200 too). A client keeps the latest and retries once on use_dpop_nonce.
dpop_call() {   # dpop_call METHOD URL ACCESS_TOKEN CURL_ARGS...
  local m=$1 u=$2 at=$3 i n; shift 3
  for i in 1 2; do
    curl -s -D "$W/h" -o "$W/b" -X "$m" -H "DPoP: $(dpop_proof "$W/dpop.pem" "$m" "$u" "$at" "$NONCE")" \
         ${at:+-H "Authorization: DPoP $at"} "$@" "$u"
    n=$(sed -n "s/^[Dd][Pp][Oo][Pp]-[Nn]once: *//p" "$W/h" | tr -d "\r")
    [ -n "$n" ] && NONCE=$n
    grep -q use_dpop_nonce "$W/h" "$W/b" || break
  done
  cat "$W/b"
}
dpop_post() { dpop_call POST "$TOK" "" "$@"; }

check "discovery issuer" "$(curl -s "$OP_DISCOVERY" | jq -r .issuer)" "$OP_ISSUER"
check "jwks has the ES256 key" "$(curl -s "$OP_ISSUER/jwks" | jq -r '.keys[0].alg')" ES256

# client authentication methods (client_credentials)
check "client_secret_basic" "$(curl -s -u "$CI:$CS" -d grant_type=client_credentials -d scope=openid "$TOK" | jq -r .token_type)" bearer
check "client_secret_post" "$(curl -s -d client_id="$CI" -d client_secret="$CS" -d grant_type=client_credentials -d scope=openid "$TOK" | jq -r .token_type)" bearer
A=$(printf '{"alg":"HS256","typ":"JWT"}' | b64url).$(assertion_claims "$CI" | b64url)
A=$A.$(printf %s "$A" | openssl dgst -sha256 -hmac "$CS" -binary | b64url)
check "client_secret_jwt" "$(curl -s -d client_assertion_type=$A_TYPE -d client_assertion="$A" -d grant_type=client_credentials -d scope=openid "$TOK" | jq -r .token_type)" bearer
A=$(es256_jwt "$OP_JWT_CLIENT_KEY" "$(jq -cn --arg k "$OP_JWT_CLIENT_KID" '{alg:"ES256",typ:"JWT",kid:$k}')" "$(assertion_claims "$OP_JWT_CLIENT_ID")")
check "private_key_jwt" "$(curl -s -d client_assertion_type=$A_TYPE -d client_assertion="$A" -d grant_type=client_credentials -d scope=openid "$TOK" | jq -r .token_type)" bearer

# DPoP with client_credentials
ec_keygen "$W/dpop.pem"; JKT=$(jwk_thumbprint "$(ec_jwk "$W/dpop.pem")")
T=$(dpop_post -u "$CI:$CS" -d grant_type=client_credentials -d scope=openid)
check "DPoP client_credentials token_type" "$(jq -r .token_type <<<"$T")" DPoP
check "DPoP client_credentials cnf.jkt" "$(jwt_part "$(jq -r .access_token <<<"$T")" 2 | jq -r .cnf.jkt)" "$JKT"
check "DPoP proof with htu=localhost is refused" "$(curl -s -o /dev/null -w '%{http_code}' -u "$CI:$CS" \
   -H "DPoP: $(dpop_proof "$W/dpop.pem" POST "${TOK/127.0.0.1/localhost}" "" "$NONCE")" -d grant_type=client_credentials -d scope=openid "$TOK")" 403

# authorization code + PKCE + dpop_jkt (public client), via the headless user agent
V=$(openssl rand 48 | b64url); C=$(printf %s "$V" | openssl dgst -sha256 -binary | b64url)
RU=$(jq -rn --arg v "$OP_REDIRECT_URI" '$v|@uri')
LOC=$("$HERE/authorize.sh" "$OP_AUTHORIZATION_ENDPOINT?response_type=code&client_id=$OP_PUBLIC_CLIENT_ID&redirect_uri=$RU&scope=openid%20profile%20email%20offline_access&state=st1&nonce=n1&code_challenge=$C&code_challenge_method=S256&dpop_jkt=$JKT" "$W/jar")
CODE=$(sed -n 's/.*[?&]code=\([^&]*\).*/\1/p' <<<"$LOC")
check "authorize.sh returns a code with state and iss" "$([ -n "$CODE" ] && grep -q 'state=st1' <<<"$LOC" && grep -q '[?&]iss=' <<<"$LOC" && echo ok)" ok
T=$(dpop_post -d grant_type=authorization_code -d client_id="$OP_PUBLIC_CLIENT_ID" --data-urlencode redirect_uri="$OP_REDIRECT_URI" -d code="$CODE" -d code_verifier="$V")
AT=$(jq -r .access_token <<<"$T"); RT=$(jq -r .refresh_token <<<"$T")
check "code flow: token_type DPoP" "$(jq -r .token_type <<<"$T")" DPoP
check "code flow: cnf.jkt" "$(jwt_part "$AT" 2 | jq -r .cnf.jkt)" "$JKT"
check "code flow: id_token nonce" "$(jwt_part "$(jq -r .id_token <<<"$T")" 2 | jq -r .nonce)" n1
check "userinfo with DPoP proof (ath)" "$(dpop_call GET "$OP_ISSUER/userinfo" "$AT" | jq -r .email)" alice@example.test
T2=$(dpop_post -d grant_type=refresh_token -d client_id="$OP_PUBLIC_CLIENT_ID" -d refresh_token="$RT")
check "refresh with DPoP rotates the refresh token" "$(jq -r '.refresh_token != null and .refresh_token != "'"$RT"'"' <<<"$T2")" true
dpop_post -d grant_type=refresh_token -d client_id="$OP_PUBLIC_CLIENT_ID" -d refresh_token="$RT" >/dev/null
check "reused refresh token is refused (400, empty body)" "$(head -1 "$W/h" | cut -d" " -f2) $(wc -c <"$W/b")" "400 0"

# RP-initiated logout goes through the login page (login.html?prompt=end_session&callback_url=...)
IDT=$(jq -r .id_token <<<"$T")
L=$(curl -s -o /dev/null -w '%{redirect_url}' -b "$W/jar" "$OP_ISSUER/end_session?id_token_hint=$IDT&post_logout_redirect_uri=$(jq -rn --arg v "$OP_POST_LOGOUT_REDIRECT_URI" '$v|@uri')&state=bye")
check "end_session redirects to the login page with prompt=end_session" "$(grep -c 'prompt=end_session' <<<"$L")" 1

[ "$FAILS" -eq 0 ] && echo "ALL CHECKS PASSED" || { echo "$FAILS CHECK(S) FAILED"; exit 1; }
