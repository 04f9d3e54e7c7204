#!/usr/bin/env python3
"""Write the TLS connections the capture decoder's TLS layer is tested against, protected by pyca/cryptography.

RFC 8448 has traces of one TLS 1.3 suite only, and none of KeyUpdate or TLS 1.2. This script makes the
rest with keys it chooses, so that the expected plaintexts come from implementations we did not write:
the AEADs are pyca/cryptography's (OpenSSL's AES-GCM and ChaCha20-Poly1305), HKDF-Expand-Label is built
on cryptography's HKDFExpand, and the TLS 1.2 PRF on Python's hmac module (checked first against the
published P_SHA256 and P_SHA384 vectors). Nothing here shares code with the Swift decoder.

Output: Tests/FleetEngineCaptureTests/Fixtures/tls-record-vectors.json, an object with the package
version used and a list of connections. Each connection has:

  name, version, cipherSuite      what it is: "TLS 1.3" or "TLS 1.2", and the suite's number
  clientRandomHex, serverRandomHex
  keyLog                          the NSS key log lines of the connection (SSLKEYLOGFILE format)
  masterSecretHex                 TLS 1.2: the master secret; its key block is PRF(master secret,
  keyBlock                        "key expansion", server random + client random), cut into clientKeyHex,
                                  serverKeyHex, clientIVHex and serverIVHex (RFC 5246 section 6.3)
  trafficSecrets                  TLS 1.3: per side ("client", "server") the list of the application
                                  traffic secrets it used, the first one from the key log and each next
                                  one HKDF-Expand-Label(previous, "traffic upd", "", Hash.length)
                                  (RFC 8446 section 7.2)
  records                         every record of both sides in the order they were sent: fromClient,
                                  recordHex (header and fragment as sent), contentType (the inner one
                                  for TLS 1.3), plaintextHex (without TLS 1.3 padding), and for a
                                  protected record keyHex, ivHex, sequenceNumber (of its key) and, for
                                  TLS 1.3, trafficSecretHex (the secret its key and IV came from)
  clientApplicationDataHex,       all the application data each side sent, in order
  serverApplicationDataHex

The randoms, secrets and plaintexts are fixed and AEAD encryption is deterministic, so running the
script twice writes an identical file.

    python3 Scripts/make-tls-fixtures.py [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import pathlib
from importlib import metadata

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

DEFAULT_OUT = pathlib.Path("Tests/FleetEngineCaptureTests/Fixtures/tls-record-vectors.json")

HANDSHAKE, CHANGE_CIPHER_SPEC, ALERT, APPLICATION_DATA = 22, 20, 21, 23

# name, number, version, AEAD, key length, hash
SUITES = {
    "TLS_AES_128_GCM_SHA256": (0x1301, "TLS 1.3", AESGCM, 16, hashlib.sha256),
    "TLS_AES_256_GCM_SHA384": (0x1302, "TLS 1.3", AESGCM, 32, hashlib.sha384),
    "TLS_CHACHA20_POLY1305_SHA256": (0x1303, "TLS 1.3", ChaCha20Poly1305, 32, hashlib.sha256),
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": (0xC02F, "TLS 1.2", AESGCM, 16, hashlib.sha256),
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384": (0xC030, "TLS 1.2", AESGCM, 32, hashlib.sha384),
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256": (0xCCA8, "TLS 1.2", ChaCha20Poly1305, 32, hashlib.sha256),
}


def fixed_bytes(label: str, length: int) -> bytes:
    """Bytes that look random and are the same on every run."""
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:length]


def u16(value: int) -> bytes:
    return value.to_bytes(2, "big")


def vector(length_bytes: int, body: bytes) -> bytes:
    return len(body).to_bytes(length_bytes, "big") + body


def handshake_message(message_type: int, body: bytes) -> bytes:
    return bytes([message_type]) + vector(3, body)


def extension(extension_type: int, body: bytes) -> bytes:
    return u16(extension_type) + vector(2, body)


def alpn(name: str) -> bytes:
    return extension(16, vector(2, vector(1, name.encode())))


def client_hello(random: bytes, suites: list[int], tls13: bool) -> bytes:
    extensions = alpn("h2") + extension(10, vector(2, u16(29)))  # ALPN, supported_groups x25519
    if tls13:
        extensions += extension(43, vector(1, u16(0x0304)))  # supported_versions
        extensions += extension(51, vector(2, u16(29) + vector(2, fixed_bytes("client key share", 32))))
    body = u16(0x0303) + random + vector(1, fixed_bytes("session id", 32))
    body += vector(2, b"".join(u16(suite) for suite in suites)) + vector(1, b"\x00") + vector(2, extensions)
    return handshake_message(1, body)


def server_hello(random: bytes, suite: int, tls13: bool) -> bytes:
    if tls13:
        extensions = extension(43, u16(0x0304)) + extension(51, u16(29) + vector(2, fixed_bytes("server key share", 32)))
    else:
        extensions = alpn("h2") + extension(23, b"")  # ALPN, extended_master_secret
    body = u16(0x0303) + random + vector(1, fixed_bytes("session id", 32)) + u16(suite) + b"\x00"
    return handshake_message(2, body + vector(2, extensions))


def record_header(content_type: int, length: int, version: int = 0x0303) -> bytes:
    return bytes([content_type]) + u16(version) + u16(length)


# --- key derivations, independent of the decoder's --------------------------------------------


def hkdf_expand_label(hash_function, secret: bytes, label: str, length: int) -> bytes:
    """HKDF-Expand-Label(secret, label, "", length) of RFC 8446 section 7.1."""
    full_label = b"tls13 " + label.encode()
    info = u16(length) + vector(1, full_label) + vector(1, b"")
    algorithm = hashes.SHA256() if hash_function is hashlib.sha256 else hashes.SHA384()
    return HKDFExpand(algorithm, length, info).derive(secret)


def prf(hash_function, secret: bytes, label: bytes, seed: bytes, length: int) -> bytes:
    """The TLS 1.2 PRF of RFC 5246 section 5, P_hash over Python's hmac."""
    seed = label + seed
    out = b""
    a = seed
    while len(out) < length:
        a = hmac.new(secret, a, hash_function).digest()
        out += hmac.new(secret, a + seed, hash_function).digest()
    return out[:length]


def check_prf() -> None:
    """The PRF against the published vectors: P_SHA256 from the IETF TLS list ("TLS 1.2 test vectors",
    www.ietf.org/mail-archive/web/tls/current/msg03416.html) and its P_SHA384 companion."""
    sha256 = prf(hashlib.sha256, bytes.fromhex("9bbe436ba940f017b17652849a71db35"), b"test label",
                 bytes.fromhex("a0ba9f936cda311827a6f796ffd5198c"), 100)
    assert sha256.hex() == (
        "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14baf9af"
        "0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff701"
        "87347b66"), "P_SHA256"
    sha384 = prf(hashlib.sha384, bytes.fromhex("b80b733d6ceefcdc71566ea48e5567df"), b"test label",
                 bytes.fromhex("cd665cf6a8447dd6ff8b27555edb7465"), 148)
    assert sha384.hex() == (
        "7b0c18e9ced410ed1804f2cfa34a336a1c14dffb4900bb5fd7942107e81c83cde9ca0faa60be9fe34f82b1233c9146a0"
        "e534cb400fed2700884f9dc236f80edd8bfa961144c9e8d792eca722a7b32fc3d416d473ebc2c5fd4abfdad05d918425"
        "9b5bf8cd4d90fa0d31e2dec479e4f1a26066f2eea9a69236a3e52655c9e9aee691c8f3a26854308d5eaa3be85e099070"
        "3d73e56f"), "P_SHA384"


# --- record protection -------------------------------------------------------------------------


class Protection:
    """One direction's write state: an AEAD key, its IV, and the sequence number of its next record."""

    def __init__(self, suite: str, key: bytes, iv: bytes, secret: bytes | None = None):
        self.suite = suite
        self.aead = SUITES[suite][2](key)
        self.key = key
        self.iv = iv
        self.secret = secret
        self.sequence_number = 0

    def xor_nonce(self) -> bytes:
        padded = self.sequence_number.to_bytes(len(self.iv), "big")
        return bytes(a ^ b for a, b in zip(self.iv, padded))


class Connection:
    def __init__(self, name: str, suite: str):
        self.name = name
        self.suite = suite
        self.number, self.version, _, self.key_length, self.hash = SUITES[suite]
        self.tls13 = self.version == "TLS 1.3"
        self.client_random = fixed_bytes(f"{name}/client random", 32)
        self.server_random = fixed_bytes(f"{name}/server random", 32)
        self.records: list[dict] = []
        self.application_data = {True: b"", False: b""}
        self.protection: dict[bool, Protection | None] = {True: None, False: None}

    def clear(self, from_client: bool, content_type: int, payload: bytes, version: int = 0x0303) -> None:
        self.records.append({
            "fromClient": from_client, "contentType": content_type, "plaintextHex": payload.hex(),
            "recordHex": (record_header(content_type, len(payload), version) + payload).hex(),
        })

    def protected(self, from_client: bool, content_type: int, payload: bytes, padding: int = 0,
                  explicit_nonce: bytes | None = None) -> None:
        state = self.protection[from_client]
        assert state is not None
        if self.tls13:
            # RFC 8446 section 5.2: TLSInnerPlaintext, sealed with the record header as additional data.
            inner = payload + bytes([content_type]) + bytes(padding)
            header = record_header(APPLICATION_DATA, len(inner) + 16)
            fragment = state.aead.encrypt(state.xor_nonce(), inner, header)
        else:
            # RFC 5246 section 6.2.3.3: seq_num + type + version + length of the plaintext.
            additional_data = state.sequence_number.to_bytes(8, "big") + record_header(content_type, len(payload))
            if SUITES[self.suite][2] is AESGCM:
                # RFC 5288 section 3: salt from the key block, then 8 explicit bytes sent in the record.
                assert explicit_nonce is not None and len(explicit_nonce) == 8
                fragment = explicit_nonce + state.aead.encrypt(state.iv + explicit_nonce, payload, additional_data)
            else:
                # RFC 7905 section 2: the sequence number XORed into the 12-byte IV.
                fragment = state.aead.encrypt(state.xor_nonce(), payload, additional_data)
            header = record_header(content_type, len(fragment))
        record = {
            "fromClient": from_client, "contentType": content_type, "plaintextHex": payload.hex(),
            "recordHex": (header + fragment).hex(), "keyHex": state.key.hex(), "ivHex": state.iv.hex(),
            "sequenceNumber": state.sequence_number,
        }
        if state.secret is not None:
            record["trafficSecretHex"] = state.secret.hex()
        self.records.append(record)
        state.sequence_number += 1
        if content_type == APPLICATION_DATA:
            self.application_data[from_client] += payload

    def application(self, from_client: bool, text: str, padding: int = 0, explicit_nonce: bytes | None = None) -> None:
        self.protected(from_client, APPLICATION_DATA, text.encode(), padding=padding, explicit_nonce=explicit_nonce)

    def output(self) -> dict:
        return {
            "name": self.name, "version": self.version, "cipherSuite": self.number,
            "clientRandomHex": self.client_random.hex(), "serverRandomHex": self.server_random.hex(),
            "records": self.records,
            "clientApplicationDataHex": self.application_data[True].hex(),
            "serverApplicationDataHex": self.application_data[False].hex(),
        }


def long_text(label: str, length: int) -> str:
    line = f"{label}: the quick brown fox jumps over the lazy dog. "
    return (line * (length // len(line) + 1))[:length]


# --- TLS 1.3 -------------------------------------------------------------------------------------


def tls13_connection(name: str, suite: str, key_updates: bool) -> dict:
    connection = Connection(name, suite)
    hash_length = connection.hash().digest_size
    secrets = {label: fixed_bytes(f"{name}/{label}", hash_length) for label in (
        "CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET",
        "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0")}
    client_random = connection.client_random.hex()
    key_log = "".join(f"{label} {client_random} {secret.hex()}\n" for label, secret in secrets.items())
    traffic_secrets = {True: [secrets["CLIENT_TRAFFIC_SECRET_0"]], False: [secrets["SERVER_TRAFFIC_SECRET_0"]]}

    def keys(secret: bytes) -> tuple[bytes, bytes]:
        return (hkdf_expand_label(connection.hash, secret, "key", connection.key_length),
                hkdf_expand_label(connection.hash, secret, "iv", 12))

    def use(from_client: bool, secret: bytes) -> None:
        connection.protection[from_client] = Protection(suite, *keys(secret), secret)

    def key_update(from_client: bool, request_update: bool) -> None:
        # RFC 8446 section 4.6.3: sent under the old keys; the records after it use the next secret.
        connection.protected(from_client, HANDSHAKE, handshake_message(24, bytes([1 if request_update else 0])))
        following = hkdf_expand_label(connection.hash, traffic_secrets[from_client][-1], "traffic upd", hash_length)
        traffic_secrets[from_client].append(following)
        use(from_client, following)

    connection.clear(True, HANDSHAKE, client_hello(connection.client_random, [connection.number], True), 0x0301)
    connection.clear(False, HANDSHAKE, server_hello(connection.server_random, connection.number, True))
    # Middlebox compatibility mode (RFC 8446 appendix D.4): a ChangeCipherSpec in the clear from each side.
    connection.clear(False, CHANGE_CIPHER_SPEC, b"\x01")
    use(False, secrets["SERVER_HANDSHAKE_TRAFFIC_SECRET"])
    encrypted_extensions = handshake_message(8, vector(2, alpn("h2")))
    certificate = handshake_message(11, b"\x00" + vector(3, vector(3, fixed_bytes(f"{name}/certificate", 700)) + u16(0)))
    certificate_verify = handshake_message(15, u16(0x0804) + vector(2, fixed_bytes(f"{name}/signature", 256)))
    server_finished = handshake_message(20, fixed_bytes(f"{name}/server finished", hash_length))
    flight = encrypted_extensions + certificate + certificate_verify + server_finished
    # The flight in three records that cut the Certificate message and pad the last one.
    connection.protected(False, HANDSHAKE, flight[:300])
    connection.protected(False, HANDSHAKE, flight[300:900], padding=20)
    connection.protected(False, HANDSHAKE, flight[900:], padding=3)
    use(False, secrets["SERVER_TRAFFIC_SECRET_0"])

    connection.clear(True, CHANGE_CIPHER_SPEC, b"\x01")
    use(True, secrets["CLIENT_HANDSHAKE_TRAFFIC_SECRET"])
    connection.protected(True, HANDSHAKE, handshake_message(20, fixed_bytes(f"{name}/client finished", hash_length)))
    use(True, secrets["CLIENT_TRAFFIC_SECRET_0"])

    connection.application(True, "client hello world, first request")
    new_session_ticket = handshake_message(4, bytes(4) + bytes(4) + vector(1, b"\x00") + vector(2, b"ticket") + u16(0))
    connection.protected(False, HANDSHAKE, new_session_ticket)
    connection.application(False, "server answers the first request", padding=40)
    connection.application(True, long_text("client", 1500))
    if key_updates:
        key_update(True, request_update=True)
        connection.application(True, "client after its first KeyUpdate")
        key_update(False, request_update=False)
        connection.application(False, "server after its first KeyUpdate")
        connection.application(False, long_text("server", 2500), padding=7)
        key_update(False, request_update=False)
        connection.application(False, "server after its second KeyUpdate")
        key_update(True, request_update=False)
        connection.application(True, "client after its second KeyUpdate")
    else:
        connection.application(False, long_text("server", 2500), padding=7)
    connection.protected(True, ALERT, b"\x01\x00")
    connection.protected(False, ALERT, b"\x01\x00")

    output = connection.output()
    output["keyLog"] = key_log
    output["trafficSecrets"] = {"client": [s.hex() for s in traffic_secrets[True]],
                                "server": [s.hex() for s in traffic_secrets[False]]}
    return output


# --- TLS 1.2 -------------------------------------------------------------------------------------


def tls12_connection(name: str, suite: str) -> dict:
    connection = Connection(name, suite)
    master_secret = fixed_bytes(f"{name}/master secret", 48)
    key_log = f"CLIENT_RANDOM {connection.client_random.hex()} {master_secret.hex()}\n"
    aes_gcm = SUITES[suite][2] is AESGCM
    iv_length = 4 if aes_gcm else 12
    key_length = connection.key_length
    block = prf(connection.hash, master_secret, b"key expansion", connection.server_random + connection.client_random,
                2 * (key_length + iv_length))
    client_key, server_key = block[:key_length], block[key_length:2 * key_length]
    client_iv = block[2 * key_length:2 * key_length + iv_length]
    server_iv = block[2 * key_length + iv_length:]

    def explicit(from_client: bool) -> bytes | None:
        # Explicit nonces that differ from the sequence number, so that a reader must take them from
        # the record.
        if not aes_gcm:
            return None
        state = connection.protection[from_client]
        return fixed_bytes(f"{name}/nonce/{from_client}/{state.sequence_number}", 8)

    connection.clear(True, HANDSHAKE, client_hello(connection.client_random, [connection.number], False), 0x0301)
    server_flight = (server_hello(connection.server_random, connection.number, False)
                     + handshake_message(11, vector(3, vector(3, fixed_bytes(f"{name}/certificate", 600))))
                     + handshake_message(12, fixed_bytes(f"{name}/server key exchange", 300))
                     + handshake_message(14, b""))
    connection.clear(False, HANDSHAKE, server_flight)
    connection.clear(True, HANDSHAKE, handshake_message(16, vector(1, fixed_bytes(f"{name}/client key share", 32))))
    connection.clear(True, CHANGE_CIPHER_SPEC, b"\x01")
    connection.protection[True] = Protection(suite, client_key, client_iv)
    connection.protected(True, HANDSHAKE, handshake_message(20, fixed_bytes(f"{name}/client verify data", 12)),
                         explicit_nonce=explicit(True))
    connection.clear(False, CHANGE_CIPHER_SPEC, b"\x01")
    connection.protection[False] = Protection(suite, server_key, server_iv)
    connection.protected(False, HANDSHAKE, handshake_message(20, fixed_bytes(f"{name}/server verify data", 12)),
                         explicit_nonce=explicit(False))
    connection.application(True, "client hello world, first request", explicit_nonce=explicit(True))
    connection.application(True, long_text("client", 1500), explicit_nonce=explicit(True))
    connection.application(False, "server answers the first request", explicit_nonce=explicit(False))
    connection.application(False, long_text("server", 2500), explicit_nonce=explicit(False))
    connection.protected(True, ALERT, b"\x01\x00", explicit_nonce=explicit(True))
    connection.protected(False, ALERT, b"\x01\x00", explicit_nonce=explicit(False))

    output = connection.output()
    output["keyLog"] = key_log
    output["masterSecretHex"] = master_secret.hex()
    output["keyBlock"] = {"clientKeyHex": client_key.hex(), "serverKeyHex": server_key.hex(),
                          "clientIVHex": client_iv.hex(), "serverIVHex": server_iv.hex()}
    return output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=DEFAULT_OUT, type=pathlib.Path, help=f"output file (default: {DEFAULT_OUT})")
    arguments = parser.parse_args()
    check_prf()
    connections = [
        tls13_connection("TLS 1.3 AES-128-GCM with KeyUpdates both ways", "TLS_AES_128_GCM_SHA256", key_updates=True),
        tls13_connection("TLS 1.3 AES-256-GCM (SHA-384 secrets)", "TLS_AES_256_GCM_SHA384", key_updates=False),
        tls13_connection("TLS 1.3 ChaCha20-Poly1305 with KeyUpdates", "TLS_CHACHA20_POLY1305_SHA256",
                         key_updates=True),
        tls12_connection("TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
        tls12_connection("TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
        tls12_connection("TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
    ]
    document = {"cryptography": metadata.version("cryptography"), "connections": connections}
    arguments.out.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    print(f"wrote {arguments.out}: {len(connections)} connections")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
