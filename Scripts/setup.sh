#!/usr/bin/env bash
# Set-up, the first of the README's two commands: installs what a fresh machine with only the
# Swift toolchain lacks, then runs the main job (builds `fleettrips` in release mode and runs its demo).
#
#   Scripts/setup.sh
#
# The main job is `fleettrips demo`: a local Fleet Engine in process, a simulated trip on it, and
# that trip followed over gRPC to COMPLETE with every event printed.
#
# Installs, when missing: Debian's libprotobuf-c-dev (the codec's C runtime), protobuf-c-compiler
# and protobuf-compiler (code generation checks), zlib1g-dev (gRPC message compression), tshark
# (the reference Scripts/check-tls-captures.py compares `fleettrips capture` with; installed
# non-interactively it answers no to wireshark-common's question about letting non-root users
# capture), chromium (the browser Scripts/check-trip-page-in-browser.py opens the trip pages in,
# headless), and from PyPI, into the project's virtualenv .venv, Google's google-maps-fleetengine,
# grpcio and grpcio-status, google-auth with cryptography (its RS256 verifier), the independent
# references the tests compare against, and websocket-client (Chromium's DevTools protocol). Run as
# root, or with sudo available. The fuzz replay (FuzzTesting/replay.sh) needs nothing more:
# libFuzzer, AddressSanitizer and lld ship with the toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

apt_packages=(libprotobuf-c-dev protobuf-c-compiler protobuf-compiler zlib1g-dev pkg-config tshark chromium)
missing=()
for package in "${apt_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    sudo_prefix=""
    if [ "$(id -u)" -ne 0 ]; then sudo_prefix="sudo"; fi
    echo "installing from apt: ${missing[*]}"
    $sudo_prefix apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_prefix apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Google's Python packages go into a virtualenv of the project's own (.venv), so the system's
# Python is left as it is; Scripts/test.sh runs every Python check with .venv/bin/python3.
python_packages=(google-maps-fleetengine grpcio grpcio-status google-auth cryptography websocket-client)
if [ ! -x .venv/bin/python3 ]; then
    echo "creating the virtualenv .venv"
    python3 -m venv .venv
fi
if ! .venv/bin/python3 -c "import google.maps.fleetengine_v1, grpc, grpc_status, google.auth, cryptography, websocket" \
    >/dev/null 2>&1; then
    echo "installing from PyPI into .venv: ${python_packages[*]}"
    .venv/bin/python3 -m pip install --quiet --disable-pip-version-check "${python_packages[@]}"
fi

swift build -c release --product fleettrips
fleettrips="$(swift build -c release --show-bin-path)/fleettrips"
echo "built: $fleettrips"
"$fleettrips" demo --speed 120
