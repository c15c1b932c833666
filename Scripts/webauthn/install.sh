#!/bin/bash
# Installs the software authenticator the passkey tests use (soft-webauthn, from PyPI, pinned)
# in a virtual environment under .build, and prints the path of the program that runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.build/soft-webauthn-venv
if ! "$VENV/bin/python" -c 'import soft_webauthn' 2>/dev/null; then
  command -v python3 >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 >/dev/null
  python3 -m venv "$VENV" >/dev/null 2>&1 || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null
    python3 -m venv "$VENV"
  }
  "$VENV/bin/pip" install -q --disable-pip-version-check 'soft-webauthn==0.1.4' 'fido2==1.2.0' >&2
fi
PROGRAM="$PWD/$VENV/bin/soft-authenticator"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$PWD/$VENV/bin/python" "$PWD/Scripts/webauthn/soft-authenticator.py" > "$PROGRAM"
chmod 700 "$PROGRAM"
printf '%s\n' "$PROGRAM"
