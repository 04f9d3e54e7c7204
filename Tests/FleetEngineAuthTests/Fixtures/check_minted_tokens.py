#!/usr/bin/env python3
"""Verifies tokens minted by FleetEngineAuth with Google's google-auth, and prints what it decoded.

    .venv/bin/python3 check_minted_tokens.py < request.json

Reads one JSON object on standard input: {"publicKeyPEM": "...", "keyId": "...", "audience": "...",
"tokens": ["eyJ...", ...]}. Each token is checked by google.auth.jwt.decode against the public key
(a PEM public key: google.auth.crypt.RSAVerifier.from_string takes one as well as a certificate),
selected by the token's kid, for the audience given; google-auth checks the RS256 signature, iat
and exp. Prints one JSON object: {"results": [{"header": {...}, "claims": {...}} or
{"error": "..."}, ...]}, in the order of the tokens, so the Swift test compares every field.

Needs google-auth with the cryptography package (which google-auth's RS256 verifier uses).
"""

import json
import sys

import google.auth.crypt
import google.auth.jwt


def main():
    request = json.load(sys.stdin)
    certs = {request["keyId"]: request["publicKeyPEM"]}
    # Fails here, before any token, if google-auth cannot read the public key.
    google.auth.crypt.RSAVerifier.from_string(request["publicKeyPEM"])
    results = []
    for token in request["tokens"]:
        try:
            claims = google.auth.jwt.decode(token, certs=certs, audience=request["audience"])
            results.append({"header": google.auth.jwt.decode_header(token), "claims": claims})
        except Exception as error:  # every refusal is reported, not raised: the test says which
            results.append({"error": f"{type(error).__name__}: {error}"})
    json.dump({"results": results}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
