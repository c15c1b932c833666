#!/bin/bash
# Configure the instance started by start.sh through Glewlwyd's admin REST API only:
# OIDC plugin "oidc" (ES256, PKCE, rotating one-use refresh tokens, revocation/introspection, end_session,
# DPoP, DCR, PAR, the device grant), scopes, users alice / bob / carol / dave, clients native-app / conf-app / jwt-app.
# Writes $OP_DIR/op.env (sourceable) and $OP_DIR/op.json.
# env: OP_PORT (4593)  OP_DIR (/dev/shm/swift-haapi-op)  OP_DPOP_NONCE (0; 1 = DPoP nonces mandatory)
#      OP_REDIRECT_URI (http://127.0.0.1:8765/callback)  OP_POST_LOGOUT_REDIRECT_URI (http://127.0.0.1:8765/logged-out)
set -euo pipefail
. "$(dirname "$0")/common.sh"
OP_DIR=$(cd "$OP_DIR" && pwd)
OP_DPOP_NONCE=${OP_DPOP_NONCE:-0}
REDIRECT=${OP_REDIRECT_URI:-http://127.0.0.1:8765/callback}
LOGOUT=${OP_POST_LOGOUT_REDIRECT_URI:-http://127.0.0.1:8765/logged-out}
# A second loopback port for the `haapi` command-line tests, so that they never wait for the
# port the library's tests listen on (the provider matches the port exactly).
CLI_REDIRECT=${OP_CLI_REDIRECT_URI:-http://127.0.0.1:8766/callback}
CLI_LOGOUT=${OP_CLI_POST_LOGOUT_REDIRECT_URI:-http://127.0.0.1:8766/logged-out}
# The redirects of an app that is opened with them (RFC 8252 §7.1 private-use scheme, §7.2 claimed
# https): the public client's deep-link logins, handed back through OIDCClient.resumeExternalUserAgentFlow.
DEEPLINK_REDIRECT=com.example.swifthaapi:/oauth/callback
DEEPLINK_LOGOUT=com.example.swifthaapi:/oauth/logged-out
CLAIMED_REDIRECT=https://app.swift-haapi.test/oauth/callback
if [ -f "$OP_DIR/provisioned" ]; then echo "provision: already done ($OP_DIR/op.env); restart with start.sh to redo"; exit 0; fi

# Default administrator from the initial database -> session cookie -> API key for the calls below.
JAR=$(mktemp); trap 'rm -f "$JAR"' EXIT
curl -sSf -o /dev/null -c "$JAR" -H 'Content-Type: application/json' \
     -d '{"username":"admin","password":"password"}' "$OP_API/auth/"
KEY=$(curl -sSf -b "$JAR" -X POST "$OP_API/key/" | jq -er .key)

api() {   # api METHOD PATH [JSON] -> body on stdout; any status >= 300 aborts with the server's answer
  local out code
  out=$(curl -sS -w '\n%{http_code}' -X "$1" -H "Authorization: token $KEY" \
             ${3:+-H 'Content-Type: application/json' --data-binary "$3"} "$OP_API$2")
  code=${out##*$'\n'}; out=${out%$'\n'*}
  if [ "$code" -ge 300 ]; then echo "provision: $1 $2 -> HTTP $code $out" >&2; exit 1; fi
  printf '%s' "$out"
}

# Client backend: end_session reads post_logout_redirect_uris, which must be a multi-valued property.
api PUT /mod/client/database "$(api GET /mod/client/database | jq -c 'del(.enabled) |
  .parameters["data-format"].post_logout_redirect_uris = {multiple:true, read:true, write:true}')" >/dev/null
api PUT /mod/client/database/reset >/dev/null   # the new data-format takes effect only after a reset

# Scopes (openid exists already).
api PUT /scope/openid '{"display_name":"openid","description":"OpenID Connect","password_required":true,"password_max_age":0,"scheme":{}}' >/dev/null
# urn:se:curity:scopes:haapi is the scope of HAAPI access tokens: the driver's client-credentials
# strategy asks for it, so the confidential clients may have it.
for s in profile email offline_access urn:se:curity:scopes:haapi; do
  api POST /scope/ "$(jq -cn --arg s "$s" '{name:$s,display_name:$s,description:$s,password_required:true,password_max_age:0,scheme:{}}')" >/dev/null
done

# The OP's ES256 signing key, as a private JWKS.
ec_keygen "$OP_DIR/op-signing.pem"
OP_JWKS=$(jq -cn --argjson k "$(ec_jwk "$OP_DIR/op-signing.pem" private)" '{keys:[$k + {kid:"op-es256-1",alg:"ES256",use:"sig"}]}')

# request-parameter-allow also enables client assertions (client_secret_jwt, private_key_jwt) at the token endpoint.
PLUGIN=$(jq -cn --arg iss "$OP_ISSUER" --arg jwks "$OP_JWKS" --argjson nonce "$([ "$OP_DPOP_NONCE" = 1 ] && echo true || echo false)" '{
 module:"oidc", name:"oidc", display_name:"OpenID Connect", enabled:true, parameters:{
  iss:$iss, "oauth-as-iss-id":true, "jwks-private":$jwks, "default-kid":"op-es256-1", "jwks-show":true,
  "access-token-duration":3600, "refresh-token-duration":1209600, "code-duration":600,
  "refresh-token-rolling":true, "refresh-token-one-use":"always",
  "allow-non-oidc":true, "subject-type":"public",
  "auth-type-code-enabled":true, "auth-type-code-revoke-replayed":true, "auth-type-refresh-enabled":true,
  "auth-type-client-enabled":true, "auth-type-token-enabled":false, "auth-type-id-token-enabled":false,
  "auth-type-none-enabled":false, "auth-type-password-enabled":false, "auth-type-device-enabled":true,
  "device-authorization-expiration":600, "device-authorization-interval":1,
  "allowed-scope":["openid","profile","email","offline_access","urn:se:curity:scopes:haapi"], "scope":[], "claims":[], "additional-parameters":[],
  "name-claim":"on-demand", "name-claim-scope":["profile"], "email-claim":"on-demand", "email-claim-scope":["email"],
  "scope-claim":"no", "address-claim":{"type":"no"},
  "pkce-allowed":true, "pkce-method-plain-allowed":false, "pkce-required-public-client":true,
  "introspection-revocation-allowed":true, "introspection-revocation-allow-target-client":true,
  "introspection-revocation-auth-scope":[],
  "register-client-allowed":true, "register-client-auth-scope":[], "register-client-credentials-scope":[],
  "register-client-management-allowed":true,
  "session-management-allowed":true, "session-cookie-name":"GLEWLWYD_OIDC_SID", "session-cookie-expiration":2592000,
  "request-parameter-allow":true, "request-uri-allow-https-non-secure":false, "request-maximum-exp":600,
  "client-jwks-parameter":"jwks", "client-pubkey-parameter":"pubkey", "client-jwks_uri-parameter":"jwks_uri",
  "oauth-dpop-allowed":true, "oauth-dpop-iat-duration":60, "oauth-dpop-iat-gap-duration":10,
  "oauth-dpop-nonce-mandatory":$nonce, "oauth-dpop-nonce-counter":5,
  "oauth-par-allowed":true, "oauth-par-required":false,
  "oauth-par-request_uri-prefix":"urn:ietf:params:oauth:request_uri:", "oauth-par-duration":90 }}')
api POST /mod/plugin/ "$PLUGIN" >/dev/null

api POST /user/ '{"username":"alice","password":"alice-password","name":"Alice Example","email":"alice@example.test","scope":["openid","profile","email","offline_access"],"enabled":true}' >/dev/null
# bob is for the tests that check scope-dependent claims: Glewlwyd keeps one consent per user and
# client, so a concurrent test consenting for alice with fewer scopes could drop bob's email claim.
api POST /user/ '{"username":"bob","password":"bob-password","name":"Bob Example","email":"bob@example.test","scope":["openid","profile","email","offline_access"],"enabled":true}' >/dev/null
# carol and dave are the device-login tests' users (OIDCClient's and the CLI's, which run at the same
# time): their consent on Glewlwyd's verification page then never rewrites another test's consent rows
# while that test logs in (concurrent rewrites of one user's grant fail in Glewlwyd's SQL).
for who in carol dave; do
  api POST /user/ "$(jq -cn --arg u "$who" '{username:$u,password:($u + "-password"),name:$u,email:($u + "@example.test"),
    scope:["openid","profile","email","offline_access"],enabled:true}')" >/dev/null
done

CLIENT_BASE=$(jq -cn --arg ru "$REDIRECT" --arg pl "$LOGOUT" --arg cru "$CLI_REDIRECT" --arg cpl "$CLI_LOGOUT" \
  --arg dru "$DEEPLINK_REDIRECT" --arg dpl "$DEEPLINK_LOGOUT" --arg hru "$CLAIMED_REDIRECT" \
  '{enabled:true,scope:[],redirect_uri:[$ru,$cru,$dru,$hru],post_logout_redirect_uris:[$pl,$cpl,$dpl]}')
api POST /client/ "$(jq -c '. + {client_id:"native-app",name:"native-app",confidential:false,
   authorization_type:["code","refresh_token","device_authorization"]}' <<<"$CLIENT_BASE")" >/dev/null
# client_credentials: the request must carry a scope, and only scopes in the client's own "scope" list are granted
CONF_SECRET=$(openssl rand -hex 24)
api POST /client/ "$(jq -c --arg sec "$CONF_SECRET" '. + {client_id:"conf-app",name:"conf-app",confidential:true,
   scope:["openid","urn:se:curity:scopes:haapi"],
   client_secret:$sec, authorization_type:["code","refresh_token","client_credentials"],
   token_endpoint_auth_method:["client_secret_basic","client_secret_post","client_secret_jwt"]}' <<<"$CLIENT_BASE")" >/dev/null
JWT_KID=jwt-app-es256-1
ec_keygen "$OP_DIR/jwt-app.pem"
JWT_JWKS=$(jq -cn --argjson k "$(ec_jwk "$OP_DIR/jwt-app.pem")" --arg kid "$JWT_KID" '{keys:[$k + {kid:$kid,alg:"ES256",use:"sig"}]}')
api POST /client/ "$(jq -c --argjson jwks "$JWT_JWKS" '. + {client_id:"jwt-app",name:"jwt-app",confidential:true,
   scope:["openid","urn:se:curity:scopes:haapi"],
   authorization_type:["code","refresh_token","client_credentials"],
   token_endpoint_auth_method:["private_key_jwt"], jwks:$jwks}' <<<"$CLIENT_BASE")" >/dev/null

DISCO=$(curl -sSf "$OP_ISSUER/.well-known/openid-configuration")
jq -e --arg iss "$OP_ISSUER" '.issuer == $iss' <<<"$DISCO" >/dev/null || { echo "provision: discovery issuer mismatch" >&2; exit 1; }

SETTINGS=$(jq -n --arg iss "$OP_ISSUER" --argjson d "$DISCO" --arg key "$KEY" --arg sec "$CONF_SECRET" \
  --arg pem "$OP_DIR/jwt-app.pem" --arg kid "$JWT_KID" --arg ru "$REDIRECT" --arg pl "$LOGOUT" --arg n "$OP_DPOP_NONCE" \
  --arg cru "$CLI_REDIRECT" --arg cpl "$CLI_LOGOUT" \
  --arg dru "$DEEPLINK_REDIRECT" --arg dpl "$DEEPLINK_LOGOUT" --arg hru "$CLAIMED_REDIRECT" '{
  OP_ISSUER:$iss, OP_DISCOVERY:($iss + "/.well-known/openid-configuration"),
  OP_AUTHORIZATION_ENDPOINT:$d.authorization_endpoint, OP_TOKEN_ENDPOINT:$d.token_endpoint,
  OP_USER:"alice", OP_PASSWORD:"alice-password", OP_CLAIMS_USER:"bob", OP_CLAIMS_PASSWORD:"bob-password",
  OP_DEVICE_USER:"carol", OP_DEVICE_PASSWORD:"carol-password", OP_CLI_DEVICE_USER:"dave", OP_CLI_DEVICE_PASSWORD:"dave-password",
  OP_PUBLIC_CLIENT_ID:"native-app", OP_CONF_CLIENT_ID:"conf-app", OP_CONF_CLIENT_SECRET:$sec,
  OP_JWT_CLIENT_ID:"jwt-app", OP_JWT_CLIENT_KEY:$pem, OP_JWT_CLIENT_KID:$kid,
  OP_REDIRECT_URI:$ru, OP_POST_LOGOUT_REDIRECT_URI:$pl, OP_CLI_REDIRECT_URI:$cru, OP_CLI_POST_LOGOUT_REDIRECT_URI:$cpl,
  OP_DEEPLINK_REDIRECT_URI:$dru, OP_DEEPLINK_POST_LOGOUT_REDIRECT_URI:$dpl, OP_CLAIMED_REDIRECT_URI:$hru,
  OP_DPOP_NONCE:$n, OP_ADMIN_API_KEY:$key }')
jq . <<<"$SETTINGS" > "$OP_DIR/op.json"
jq -r 'to_entries[] | "\(.key)=\(.value | @sh)"' <<<"$SETTINGS" > "$OP_DIR/op.env"
touch "$OP_DIR/provisioned"
echo "provision: done; settings in $OP_DIR/op.env and $OP_DIR/op.json"
