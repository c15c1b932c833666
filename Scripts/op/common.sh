# Shared settings and helpers for Scripts/op/*.sh (source it; needs bash, openssl, xxd, jq).
OP_PORT=${OP_PORT:-4593}
OP_DIR=${OP_DIR:-/dev/shm/swift-haapi-op}   # tmpfs: SQLite commits are much cheaper than on disk
OP_URL="http://127.0.0.1:$OP_PORT"
OP_API="$OP_URL/api"
OP_ISSUER="$OP_API/oidc"

# base64url without padding, binary stdin -> stdout
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# decode JWT part N (1 header, 2 payload) of $1 to JSON
jwt_part() {
  local p; p=$(cut -d. -f"$2" <<<"$1" | tr '_-' '/+')
  while [ $(( ${#p} % 4 )) -ne 0 ]; do p="$p="; done
  printf '%s' "$p" | base64 -d
}

# ec_keygen PEM: new P-256 private key (kept if the file exists)
ec_keygen() { [ -s "$1" ] || openssl ecparam -name prime256v1 -genkey -noout -out "$1" 2>/dev/null; }

# ec_jwk PEM [private]: the key as a compact JWK (public members only unless "private")
ec_jwk() {
  local xy d=""
  # SubjectPublicKeyInfo DER for P-256 ends with 04 || X(32) || Y(32)
  xy=$(openssl ec -in "$1" -pubout -outform DER 2>/dev/null | tail -c 64 | xxd -p -c 64)
  # SEC1 ECPrivateKey DER: 30 77 02 01 01 04 20 || D(32) || ...
  [ "${2:-}" = private ] && d=$(openssl ec -in "$1" -outform DER 2>/dev/null | head -c 39 | tail -c 32 | b64url)
  jq -cn --arg x "$(printf %s "${xy:0:64}" | xxd -r -p | b64url)" --arg y "$(printf %s "${xy:64:64}" | xxd -r -p | b64url)" --arg d "$d" \
     '{kty:"EC",crv:"P-256",x:$x,y:$y} + (if $d != "" then {d:$d} else {} end)'
}

# jwk_thumbprint JWK: RFC 7638 SHA-256 thumbprint of an EC public JWK
jwk_thumbprint() { jq -cj '{crv,kty,x,y}' <<<"$1" | openssl dgst -sha256 -binary | b64url; }

# es256_sign PEM < data -> JOSE signature base64url(R || S)  (openssl emits a DER ECDSA-Sig-Value)
es256_sign() {
  local der lr r sl s
  der=$(openssl dgst -sha256 -sign "$1" | xxd -p | tr -d '\n')   # 30 L 02 lr R 02 ls S
  lr=$((16#${der:6:2})); r=${der:8:$((lr*2))}
  sl=$((16#${der:$((10+lr*2)):2})); s=${der:$((12+lr*2)):$((sl*2))}
  r=$(printf '%064s' "${r: -64}" | tr ' ' 0); s=$(printf '%064s' "${s: -64}" | tr ' ' 0)
  printf %s "$r$s" | xxd -r -p | b64url
}

# es256_jwt PEM HEADER_JSON PAYLOAD_JSON -> compact JWS
es256_jwt() {
  local h p
  h=$(jq -cj . <<<"$2" | b64url); p=$(jq -cj . <<<"$3" | b64url)
  printf '%s.%s.%s' "$h" "$p" "$(printf %s "$h.$p" | es256_sign "$1")"
}

# dpop_proof PEM METHOD URL [ACCESS_TOKEN] [NONCE] -> DPoP proof JWT (RFC 9449)
dpop_proof() {
  local ath=""
  [ -n "${4:-}" ] && ath=$(printf %s "$4" | openssl dgst -sha256 -binary | b64url)
  es256_jwt "$1" "$(jq -cn --argjson jwk "$(ec_jwk "$1")" '{typ:"dpop+jwt",alg:"ES256",jwk:$jwk}')" \
    "$(jq -cn --arg htm "$2" --arg htu "$3" --arg jti "$(openssl rand -hex 16)" --argjson iat "$(date +%s)" \
          --arg ath "$ath" --arg nonce "${5:-}" \
          '{jti:$jti,htm:$htm,htu:$htu,iat:$iat} + (if $ath != "" then {ath:$ath} else {} end)
                                                 + (if $nonce != "" then {nonce:$nonce} else {} end)')"
}
