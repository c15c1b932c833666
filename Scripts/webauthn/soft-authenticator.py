#!/usr/bin/env python3
"""A passkey for tests: soft-webauthn's software authenticator (a third-party package, so the
server's WebAuthn checks meet a credential nobody here encoded), keeping its one credential in
a state file between calls.

    soft-authenticator.py create STATE ORIGIN < creation-options.json > credential.json
    soft-authenticator.py get STATE ORIGIN < request-options.json > credential.json

The options are WebAuthn's `publicKey` members as a server sends them in JSON (base64url
strings); the credential is printed in WebAuthn's JSON form (`PublicKeyCredential.toJSON()`).
"""
import base64
import json
import sys

from cryptography.hazmat.primitives import serialization
from soft_webauthn import SoftWebauthnDevice


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def save(device, path):
    state = {
        "credential_id": b64url(device.credential_id),
        "rp_id": device.rp_id,
        "user_handle": b64url(device.user_handle),
        "sign_count": device.sign_count,
        "private_key": device.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode("ascii"),
    }
    with open(path, "w") as handle:
        json.dump(state, handle)


def load(path):
    with open(path) as handle:
        state = json.load(handle)
    device = SoftWebauthnDevice()
    device.credential_id = b64url_decode(state["credential_id"])
    device.rp_id = state["rp_id"]
    device.user_handle = b64url_decode(state["user_handle"])
    device.sign_count = state["sign_count"]
    device.private_key = serialization.load_pem_private_key(state["private_key"].encode("ascii"), password=None)
    return device


def main():
    command, state_path, origin = sys.argv[1:4]
    options = json.load(sys.stdin)
    options = options.get("publicKey", options)
    options["challenge"] = b64url_decode(options["challenge"])
    if command == "create":
        options["user"]["id"] = b64url_decode(options["user"]["id"])
        device = SoftWebauthnDevice()
        made = device.create({"publicKey": options}, origin)
        save(device, state_path)
        response = {
            "clientDataJSON": b64url(made["response"]["clientDataJSON"]),
            "attestationObject": b64url(made["response"]["attestationObject"]),
        }
    elif command == "get":
        device = load(state_path)
        made = device.get({"publicKey": options}, origin)
        save(device, state_path)
        response = {
            "clientDataJSON": b64url(made["response"]["clientDataJSON"]),
            "authenticatorData": b64url(made["response"]["authenticatorData"]),
            "signature": b64url(made["response"]["signature"]),
            "userHandle": b64url(made["response"]["userHandle"]),
        }
    else:
        sys.exit("usage: soft-authenticator.py create|get STATE ORIGIN < options.json")
    json.dump({"id": b64url(made["rawId"]), "rawId": b64url(made["rawId"]), "type": "public-key", "response": response}, sys.stdout)


if __name__ == "__main__":
    main()
