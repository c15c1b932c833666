#!/usr/bin/env python3
"""Re-check the RFC test vectors in this directory with pyca/cryptography.

Usage: python3 verify_vectors.py   (needs `pip install cryptography`)
Prints one line per vector; exits 1 if any check fails.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

HERE = os.path.dirname(os.path.abspath(__file__))
FAILED = []


def b64d(s):
    assert "=" not in s and "+" not in s and "/" not in s, "not unpadded base64url"
    raw = base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
    assert b64e(raw) == s, "non-canonical base64url"
    return raw


def b64e(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def uint(s):
    return int.from_bytes(b64d(s), "big")


def load(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return json.load(f)


def check(label, fn):
    try:
        note = fn()
        print(f"PASS {label}" + (f"  ({note})" if note else ""))
    except Exception as e:  # noqa: BLE001
        FAILED.append(label)
        print(f"FAIL {label}: {type(e).__name__}: {e}")


def split(jws):
    parts = jws.split(".")
    assert len(parts) == 3, "compact JWS needs 3 parts"
    return parts


def header_of(jws):
    return json.loads(b64d(split(jws)[0]))


# ---- key loading -----------------------------------------------------------

def rsa_private(j):
    pub = rsa.RSAPublicNumbers(uint(j["e"]), uint(j["n"]))
    p, q, d = uint(j["p"]), uint(j["q"]), uint(j["d"])
    assert p * q == pub.n, "p*q != n"
    # RSAPrivateNumbers.private_key() validates d, dp, dq, qi against p, q, e
    return rsa.RSAPrivateNumbers(p, q, d, uint(j["dp"]), uint(j["dq"]), uint(j["qi"]), pub).private_key()


CURVES = {"P-256": (ec.SECP256R1(), hashes.SHA256(), 32),
          "P-384": (ec.SECP384R1(), hashes.SHA384(), 48),
          "P-521": (ec.SECP521R1(), hashes.SHA512(), 66)}


def ec_public(j):
    curve, _, size = CURVES[j["crv"]]
    assert len(b64d(j["x"])) == size and len(b64d(j["y"])) == size, "coordinate length"
    return ec.EllipticCurvePublicNumbers(uint(j["x"]), uint(j["y"]), curve).public_key()


def ec_check_private(j):
    curve = CURVES[j["crv"]][0]
    priv = ec.derive_private_key(uint(j["d"]), curve)
    n = priv.public_key().public_numbers()
    assert (n.x, n.y) == (uint(j["x"]), uint(j["y"])), "d does not match x, y"


# ---- JWS verification ------------------------------------------------------

def verify_jws(jws, jwk, alg, expect_resign=True):
    h, p, s = split(jws)
    hdr = json.loads(b64d(h))
    assert hdr["alg"] == alg, f"header alg {hdr['alg']} != {alg}"
    data = (h + "." + p).encode("ascii")
    sig = b64d(s)
    if alg.startswith("HS"):
        digest = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}[alg]
        mac = hmac.new(b64d(jwk["k"]), data, digest).digest()
        assert hmac.compare_digest(mac, sig), "HMAC mismatch"
        return "HMAC recomputed, equal"
    if alg.startswith("RS"):
        key = rsa_private(jwk)
        h_alg = {"RS256": hashes.SHA256(), "RS384": hashes.SHA384(), "RS512": hashes.SHA512()}[alg]
        key.public_key().verify(sig, data, padding.PKCS1v15(), h_alg)
        if expect_resign:
            assert key.sign(data, padding.PKCS1v15(), h_alg) == sig, "re-signing differs"
        return "RSA key consistent, signature verifies, re-signing reproduces it"
    if alg.startswith("ES"):
        curve, h_alg, size = CURVES[{"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}[alg]]
        assert jwk["crv"] == {"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}[alg]
        assert len(sig) == 2 * size, f"signature length {len(sig)} != {2 * size}"
        r, s_ = int.from_bytes(sig[:size], "big"), int.from_bytes(sig[size:], "big")
        ec_public(jwk).verify(encode_dss_signature(r, s_), data, ec.ECDSA(h_alg))
        if "d" in jwk:
            ec_check_private(jwk)
            return "signature verifies; d matches x,y"
        return "signature verifies"
    if alg == "EdDSA":
        pub = Ed25519PublicKey.from_public_bytes(b64d(jwk["x"]))
        pub.verify(sig, data)
        if "d" in jwk:
            priv = Ed25519PrivateKey.from_private_bytes(b64d(jwk["d"]))
            assert priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) == b64d(jwk["x"]), "d does not match x"
            assert priv.sign(data) == sig, "re-signing differs"
            return "signature verifies; d matches x; re-signing reproduces it"
        return "signature verifies"
    raise AssertionError(f"unsupported alg {alg}")


def thumbprint(jwk):
    req = {"RSA": ("e", "kty", "n"), "EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x"), "oct": ("k", "kty")}[jwk["kty"]]
    canon = json.dumps({k: jwk[k] for k in req}, separators=(",", ":"), sort_keys=True)
    return canon, hashlib.sha256(canon.encode()).digest()


# ---- per-file checks -------------------------------------------------------

def rfc7515():
    v = load("rfc7515.json")
    crlf_payload = b'{"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}'
    for sec in ("A.1", "A.2", "A.3", "A.4"):
        e = v[sec]
        def f(e=e, sec=sec):
            note = verify_jws(e["jws"], e["jwk"], e["alg"])
            if sec != "A.4":
                assert b64d(split(e["jws"])[1]) == crlf_payload, "payload bytes"
            return note
        check(f"rfc7515 {sec} {e['alg']}", f)

    def a5():
        h, p, s = split(v["A.5"]["jws"])
        assert b64d(h) == b'{"alg":"none"}' and s == "" and b64d(p) == crlf_payload
        return "header {\"alg\":\"none\"}, empty signature, A.1 payload"
    check("rfc7515 A.5 none", a5)


def rfc7520():
    v = load("rfc7520.json")
    payload = v["payload"]
    for sec in ("4.1", "4.3", "4.4"):
        e = v[sec]
        def f(e=e):
            hdr = header_of(e["jws"])
            assert hdr == {"alg": e["alg"], "kid": e["jwk"]["kid"]}, f"header {hdr}"
            assert b64d(split(e["jws"])[1]) == payload.encode("utf-8"), "payload bytes"
            return verify_jws(e["jws"], e["jwk"], e["alg"])
        check(f"rfc7520 {sec} {e['alg']}", f)


def rfc7638():
    v = load("rfc7638.json")

    def f():
        canon, digest = thumbprint(v["jwk"])
        assert canon == v["canonical_json"], "canonical JSON"
        assert list(digest) == v["sha256_octets"], "SHA-256 octets"
        assert b64e(digest) == v["thumbprint"], f"thumbprint {b64e(digest)}"
        return v["thumbprint"]
    check("rfc7638 3.1 RSA thumbprint", f)


def rfc7636():
    v = load("rfc7636.json")

    def f():
        assert b64e(bytes(v["verifier_octets"])) == v["code_verifier"], "verifier octets"
        digest = hashlib.sha256(v["code_verifier"].encode("ascii")).digest()
        assert list(digest) == v["challenge_sha256_octets"], "hash octets"
        assert b64e(digest) == v["code_challenge"], f"challenge {b64e(digest)}"
        return "S256"
    check("rfc7636 B S256 challenge", f)


def rfc8037():
    v = load("rfc8037.json")

    def a1():
        priv = Ed25519PrivateKey.from_private_bytes(b64d(v["A.1"]["jwk"]["d"]))
        assert b64e(priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)) == v["A.1"]["jwk"]["x"]
        assert v["A.2"]["jwk"]["x"] == v["A.1"]["jwk"]["x"]
        return "d derives x (A.1/A.2)"
    check("rfc8037 A.1/A.2 Ed25519 key", a1)

    def a3():
        canon, digest = thumbprint(v["A.3"]["jwk"])
        assert canon == v["A.3"]["canonical_json"], "canonical JSON"
        assert b64e(digest) == v["A.3"]["thumbprint"], f"thumbprint {b64e(digest)}"
        return v["A.3"]["thumbprint"]
    check("rfc8037 A.3 thumbprint", a3)

    def a4():
        e = v["A.4"]
        assert b64d(split(e["jws"])[1]) == e["payload"].encode()
        return verify_jws(e["jws"], e["jwk"], "EdDSA")
    check("rfc8037 A.4 EdDSA", a4)


def rfc9449():
    v = load("rfc9449.json")

    def jkt():
        _, digest = thumbprint(v["jwk"])
        assert b64e(digest) == v["jkt"], f"jkt {b64e(digest)}"
        return v["jkt"]
    check("rfc9449 jkt of example key", jkt)

    for sec in ("4.1", "5.refresh", "7.1"):
        e = v[sec]
        def f(e=e):
            hdr = header_of(e["jwt"])
            assert hdr["typ"] == "dpop+jwt" and hdr["alg"] == "ES256" and hdr["jwk"] == v["jwk"], f"header {hdr}"
            if "header" in e:
                assert hdr == e["header"], "decoded header differs from figure"
            claims = json.loads(b64d(split(e["jwt"])[1]))
            if "payload" in e:
                assert claims == e["payload"], "decoded payload differs from figure"
            assert claims["htm"] == e["htm"] and claims["htu"] == e["htu"]
            note = verify_jws(e["jwt"], hdr["jwk"], "ES256")
            if "access_token" in e:
                ath = b64e(hashlib.sha256(e["access_token"].encode("ascii")).digest())
                assert claims["ath"] == ath, f"ath {ath}"
                note += "; ath = SHA-256(access_token)"
            return note
        check(f"rfc9449 {sec} DPoP proof", f)

    def at():
        e = v["6.1"]
        claims = json.loads(b64d(split(e["jwt"])[1]))
        assert claims == e["payload"], "decoded payload differs from figure"
        assert claims["cnf"]["jkt"] == v["jkt"]
        assert header_of(e["jwt"]) == {"alg": "ES256", "kid": "BeALkb"}
        assert len(b64d(split(e["jwt"])[2])) == 64
        return "decoded payload matches; cnf.jkt matches; signature NOT checkable (AS key not published)"
    check("rfc9449 6.1 access token (decode only)", at)

    def nonce():
        e = v["8"]
        assert e["decoded_only"] is True
        assert e["payload"]["nonce"] == e["dpop_nonce"]
        return "decoded JSON only in the RFC; nothing to verify cryptographically"
    check("rfc9449 8 nonce payload (decoded only)", nonce)


if __name__ == "__main__":
    for fn in (rfc7515, rfc7520, rfc7638, rfc7636, rfc8037, rfc9449):
        try:
            fn()
        except Exception as e:  # noqa: BLE001  (e.g. missing/invalid file)
            FAILED.append(fn.__name__)
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    print(f"{'FAILED: ' + ', '.join(FAILED) if FAILED else 'all vectors verified'}")
    sys.exit(1 if FAILED else 0)
