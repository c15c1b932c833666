#!/bin/bash
# Install Glewlwyd (Debian's package) and the command-line tools the other scripts use.
# Idempotent and non-interactive; runs `apt-get update` only when a package has no install candidate.
# Needs root (or sudo) and Debian's apt sources.
set -euo pipefail
PKGS=(glewlwyd dbconfig-no-thanks sqlite3 curl jq openssl xxd ca-certificates)
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
missing=(); for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then echo "install: all packages present"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
for p in "${missing[@]}"; do
  if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then
    $SUDO apt-get update -q >/dev/null; break
  fi
done
# Without this answer the postinst takes its "Personalized" branch, finds no database configured and fails.
# We never use the system-wide configuration: start.sh writes its own per-instance config and database.
echo 'glewlwyd glewlwyd/config_type select No configuration' | $SUDO debconf-set-selections
# dbconfig-no-thanks satisfies glewlwyd's "dbconfig-mysql | dbconfig-sqlite3 | ..." dependency without a DB server.
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
# On a machine with systemd the package may enable a system service on the same default port (4593).
if [ -d /run/systemd/system ] && systemctl list-unit-files glewlwyd.service >/dev/null 2>&1; then
  $SUDO systemctl disable --now glewlwyd.service >/dev/null 2>&1 || true
fi
echo "install: installed ${missing[*]}"
