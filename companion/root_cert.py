"""The root certificate the app hands out (`ROOT_CERT`): on a LAN, Caddy's own certificate authority signs
the table's certificate, and each phone trusts that authority once by installing its root certificate,
which the table screen offers as a QR code (`/root.crt`).

Only the certificate may leave the machine: the authority's private key beside it would let anyone who got
it impersonate every site to the phones that trust it. So the file is read once, at start, and must be
exactly one PEM certificate of a certificate authority, nothing else: anything more (a key, another block)
and the app refuses to start.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import cast

_PEM_BLOCK = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----\s+([A-Za-z0-9+/=\s]+?)-----END \1-----")


class NotACertificate(ValueError):
    """ROOT_CERT names something else than a certificate authority's certificate (the message says what)."""


@dataclass(frozen=True)
class RootCertificate:
    pem: bytes  # what phones download
    name: str  # its subject's common name, as a phone's settings show it
    fingerprint: str  # SHA-256 of the certificate, as phones show it ("AB:CD:...")


def read_root_certificate(path: str) -> RootCertificate:
    """The certificate at `path`, or `NotACertificate` saying why it won't be handed out."""
    try:
        content = Path(path).expanduser().read_bytes()
    except OSError as error:
        raise NotACertificate(
            f"ROOT_CERT: cannot read {path} ({error.strerror}). Caddy writes its root certificate when it first "
            "starts: start Caddy first."
        ) from None
    if b"PRIVATE KEY" in content.upper():
        raise NotACertificate(
            f"ROOT_CERT: {path} holds a private key, which must never leave this machine: point it at the "
            "certificate alone (root.crt), never at a .key file or a bundle with one."
        )
    blocks = _PEM_BLOCK.findall(content)
    if len(blocks) != 1 or blocks[0][0] != b"CERTIFICATE" or _PEM_BLOCK.sub(b"", content).strip():
        raise NotACertificate(f"ROOT_CERT: {path} is not one PEM certificate (BEGIN CERTIFICATE ... END CERTIFICATE).")
    try:
        der = base64.b64decode(b"".join(blocks[0][1].split()), validate=True)
        store = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        store.load_verify_locations(cadata=der)
    except (binascii.Error, ssl.SSLError):
        raise NotACertificate(f"ROOT_CERT: {path} is not a readable certificate.") from None
    authorities = store.get_ca_certs()
    if not authorities:
        raise NotACertificate(
            f"ROOT_CERT: {path} is not a certificate authority's: phones that installed it would trust nothing."
        )
    if authorities[0]["subject"] != authorities[0]["issuer"]:
        raise NotACertificate(
            f"ROOT_CERT: {path} is an intermediate authority's, which its root replaces now and then: point it at "
            "the root certificate (root.crt)."
        )
    parts = cast(tuple[tuple[tuple[str, str], ...], ...], authorities[0]["subject"])  # (ssl's documented shape)
    subject = {name: value for part in parts for name, value in part}
    digest = hashlib.sha256(der).hexdigest().upper()
    return RootCertificate(
        pem=content.strip() + b"\n",
        name=subject.get("commonName", ""),
        fingerprint=":".join(digest[i : i + 2] for i in range(0, len(digest), 2)),
    )
