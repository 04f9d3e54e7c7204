#!/usr/bin/env python3
"""Makes the JWT fixtures of FleetEngineAuthTests with code we did not write.

Writes into Tests/FleetEngineAuthTests/Fixtures/auth/:

- test-rsa-private.pem, test-rsa-public.pem: a throwaway 2048-bit RSA key pair. TEST-ONLY: it
  is committed to the repository, so it protects nothing and must never sign a real token.
- other-rsa-private.pem: a second throwaway key, whose tokens the tests must refuse.
- hs256-secret.txt: the HS256 test secret (also test-only).
- google-auth-tokens.json: tokens signed by google-auth's RS256 signer (google.auth.jwt.encode
  with google.auth.crypt.RSASigner) and an HS256 token made here by hand with hmac/hashlib, each
  with the outcome the emulator must reach at the fixed clock and, for accepted ones, the claims.
- minted-expected.json: the exact tokens the Swift TokenMinter must produce for given inputs,
  built here independently (compact sorted JSON, signed with google-auth's RSASigner or hmac) and
  checked to be accepted by google.auth.jwt.decode (RS256) or hmac.compare_digest (HS256). The
  Swift tests compare the minter's output with them byte for byte, so google-auth accepting these
  means it accepts what the minter makes.

The keys are kept when they exist, so a rerun reproduces every file byte for byte (RS256 with
PKCS#1 v1.5 padding and HMAC are deterministic); pass --new-keys to make new ones.

Needs google-auth (2.x) and cryptography.
"""

import argparse
import base64
import datetime
import hashlib
import hmac
import json
import pathlib
from unittest import mock

import google.auth._helpers
import google.auth.jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.auth.crypt import RSASigner

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "FleetEngineAuthTests" / "Fixtures" / "auth"

AUDIENCE = "https://fleetengine.googleapis.com/"
# 2026-01-01T00:00:00Z; the tests' clock stands one minute later.
ISSUED_AT = 1767225600
NOW = ISSUED_AT + 60
LEEWAY = 30
RSA_KEY_ID = "test-key-1"
SERVICE_ACCOUNT = "emulator-test@fleet-engine-test.iam.gserviceaccount.com"
HS256_SECRET = "fleet-engine-emulator-test-secret-not-for-production"


def b64url(data: bytes) -> str:
    """Unpadded base64url, RFC 7515 section 2."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def compact_json(value) -> bytes:
    """The JSON form the Swift minter writes: sorted keys, no spaces, `/` unescaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")


def load_or_make_key(path: pathlib.Path, new: bool) -> bytes:
    if path.exists() and not new:
        return path.read_bytes()
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.write_bytes(pem)
    return pem


def public_pem(private_pem: bytes) -> bytes:
    key = serialization.load_pem_private_key(private_pem, password=None)
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def at_fixed_clock():
    """google-auth reads the time from _helpers.utcnow; pin it to NOW for decode()."""
    fixed = datetime.datetime.fromtimestamp(NOW, tz=datetime.timezone.utc).replace(tzinfo=None)
    return mock.patch.object(google.auth._helpers, "utcnow", return_value=fixed)


def fleet_payload(trip_id, iat=ISSUED_AT, exp=ISSUED_AT + 3600, aud=AUDIENCE, vehicle_id=None):
    authorization = {}
    if trip_id is not None:
        authorization["tripid"] = trip_id
    if vehicle_id is not None:
        authorization["vehicleid"] = vehicle_id
    return {
        "iss": SERVICE_ACCOUNT,
        "sub": SERVICE_ACCOUNT,
        "aud": aud,
        "iat": iat,
        "exp": exp,
        "authorization": authorization,
    }


def expected_claims(payload) -> dict:
    aud = payload.get("aud")
    authorization = payload.get("authorization", {})
    return {
        "iss": payload.get("iss"),
        "sub": payload.get("sub"),
        "aud": [aud] if isinstance(aud, str) else (aud or []),
        "iat": payload.get("iat"),
        "exp": payload.get("exp"),
        "tripid": authorization.get("tripid"),
        "vehicleid": authorization.get("vehicleid"),
    }


def hs256_token(header: dict, payload: dict, secret: bytes) -> str:
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    mac = hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + b64url(mac)


def google_auth_tokens(signer, other_signer, unnamed_signer, public: bytes) -> list:
    def rs(name, payload, outcome, using=signer):
        token = google.auth.jwt.encode(using, payload).decode("ascii")
        entry = {"name": name, "algorithm": "RS256", "token": token}
        if outcome is None:
            # Only tokens the emulator must accept are checked with google-auth's own verifier.
            # google-auth compares a single `aud` only; an array is checked by the Swift tests alone.
            audience = payload["aud"] if isinstance(payload["aud"], str) else None
            with at_fixed_clock():
                decoded = google.auth.jwt.decode(
                    token, certs=public, audience=audience, clock_skew_in_seconds=LEEWAY
                )
            assert decoded == payload, name
            entry["claims"] = expected_claims(payload)
        else:
            entry["rejection"] = outcome
        return entry

    unauthenticated = lambda reason: {"code": "UNAUTHENTICATED", "reason": reason}  # noqa: E731
    tokens = [
        rs("consumer", fleet_payload("trip-1"), None),
        rs("server", fleet_payload("*", vehicle_id="*"), None),
        rs("unnamed-key", fleet_payload("trip-2"), None, using=unnamed_signer),
        rs(
            "several-audiences",
            fleet_payload("trip-1", aud=["https://example.com/", AUDIENCE]),
            None,
        ),
        rs(
            "expired",
            fleet_payload("trip-1", iat=ISSUED_AT - 7200, exp=ISSUED_AT - 3600),
            unauthenticated("TOKEN_EXPIRED"),
        ),
        rs(
            "wrong-audience",
            fleet_payload("trip-1", aud="https://example.com/"),
            unauthenticated("AUDIENCE_MISMATCH"),
        ),
        rs(
            "issued-in-future",
            fleet_payload("trip-1", iat=NOW + 600, exp=NOW + 4200),
            unauthenticated("TOKEN_NOT_YET_VALID"),
        ),
        rs("driver-token", fleet_payload(None, vehicle_id="vehicle-1"), unauthenticated("MISSING_TRIP_ID_CLAIM")),
        rs("other-key", fleet_payload("trip-1"), unauthenticated("INVALID_SIGNATURE"), using=other_signer),
    ]

    # HS256 by hand: google-auth has no HMAC signer. Python's json.dumps spacing differs from the
    # Swift minter's, which is the point: the verifier must not care how the JSON is laid out.
    payload = fleet_payload("trip-3")
    token = hs256_token({"alg": "HS256", "typ": "JWT"}, payload, HS256_SECRET.encode())
    tokens.append({"name": "consumer-hs256", "algorithm": "HS256", "token": token, "claims": expected_claims(payload)})
    return tokens


def minted_expected(signer, public: bytes) -> list:
    """What TokenMinter must produce, built without it."""
    cases = [
        {
            "name": "consumer-rs256",
            "key": "rsa",
            "keyID": RSA_KEY_ID,
            "role": "consumer",
            "tripID": "trip-1",
            "issuer": "fleettrips@localhost",
            "subject": "fleettrips@localhost",
            "audience": AUDIENCE,
            "lifetimeSeconds": 3600,
            "now": ISSUED_AT,
        },
        {
            "name": "server-rs256",
            "key": "rsa",
            "keyID": None,
            "role": "server",
            "tripID": None,
            "issuer": SERVICE_ACCOUNT,
            "subject": "backend@fleet-engine-test.iam.gserviceaccount.com",
            "audience": AUDIENCE,
            "lifetimeSeconds": 600,
            "now": ISSUED_AT + 5,
        },
        {
            "name": "consumer-hs256",
            "key": "hs256",
            "keyID": "hs-key-1",
            "role": "consumer",
            "tripID": "trip-42",
            "issuer": "fleettrips@localhost",
            "subject": "rider-7",
            "audience": AUDIENCE,
            "lifetimeSeconds": 3600,
            "now": ISSUED_AT,
        },
        {
            "name": "server-hs256",
            "key": "hs256",
            "keyID": None,
            "role": "server",
            "tripID": None,
            "issuer": "fleettrips@localhost",
            "subject": "fleettrips@localhost",
            "audience": "https://example.com/",
            "lifetimeSeconds": 7200,
            "now": ISSUED_AT,
        },
    ]
    for case in cases:
        header = {"alg": "RS256" if case["key"] == "rsa" else "HS256", "typ": "JWT"}
        if case["keyID"] is not None:
            header["kid"] = case["keyID"]
        authorization = (
            {"tripid": "*", "vehicleid": "*"} if case["role"] == "server" else {"tripid": case["tripID"]}
        )
        payload = {
            "iss": case["issuer"],
            "sub": case["subject"],
            "aud": case["audience"],
            "iat": case["now"],
            "exp": case["now"] + case["lifetimeSeconds"],
            "authorization": authorization,
        }
        signing_input = (b64url(compact_json(header)) + "." + b64url(compact_json(payload))).encode("ascii")
        if case["key"] == "rsa":
            token = signing_input.decode() + "." + b64url(signer.sign(signing_input))
            with mock.patch.object(
                google.auth._helpers,
                "utcnow",
                return_value=datetime.datetime.fromtimestamp(case["now"], tz=datetime.timezone.utc).replace(
                    tzinfo=None
                ),
            ):
                decoded = google.auth.jwt.decode(token, certs=public, audience=case["audience"])
            assert decoded == payload, case["name"]
        else:
            mac = hmac.new(HS256_SECRET.encode(), signing_input, hashlib.sha256).digest()
            token = signing_input.decode() + "." + b64url(mac)
            # The same check the verifier makes, done with the standard library.
            head, body, signature = token.split(".")
            recomputed = hmac.new(HS256_SECRET.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
            assert hmac.compare_digest(recomputed, base64.urlsafe_b64decode(signature + "==")), case["name"]
            assert json.loads(base64.urlsafe_b64decode(body + "==")) == payload, case["name"]
        case["token"] = token
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new-keys", action="store_true", help="make new RSA test keys")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    private = load_or_make_key(OUT / "test-rsa-private.pem", args.new_keys)
    other_private = load_or_make_key(OUT / "other-rsa-private.pem", args.new_keys)
    public = public_pem(private)
    (OUT / "test-rsa-public.pem").write_bytes(public)
    (OUT / "hs256-secret.txt").write_text(HS256_SECRET)

    signer = RSASigner.from_string(private, key_id=RSA_KEY_ID)
    unnamed_signer = RSASigner.from_string(private)
    other_signer = RSASigner.from_string(other_private, key_id=RSA_KEY_ID)

    tokens = {
        "comment": "Made by Scripts/make-auth-fixtures.py with google-auth; test-only keys.",
        "now": NOW,
        "leeway": LEEWAY,
        "audience": AUDIENCE,
        "rsaKeyID": RSA_KEY_ID,
        "tokens": google_auth_tokens(signer, other_signer, unnamed_signer, public),
    }
    (OUT / "google-auth-tokens.json").write_text(json.dumps(tokens, indent=2) + "\n")

    minted = {
        "comment": "Made by Scripts/make-auth-fixtures.py; google-auth accepts every RS256 token here.",
        "rsaKeyID": RSA_KEY_ID,
        "cases": minted_expected(signer, public),
    }
    (OUT / "minted-expected.json").write_text(json.dumps(minted, indent=2) + "\n")
    print(f"wrote {len(tokens['tokens'])} google-auth tokens and {len(minted['cases'])} minter cases to {OUT}")


if __name__ == "__main__":
    main()
