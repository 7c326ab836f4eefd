"""The address phones should use: PUBLIC_URL, else this machine's LAN address instead of loopback."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent: a UDP connect only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def public_base_url(request_url_root: str, configured: str = "") -> str:
    """The base URL to put in QR codes and links (always ending with '/')."""
    if configured:
        return configured.rstrip("/") + "/"
    parts = urlsplit(request_url_root)
    if _is_loopback(parts.hostname or ""):
        lan = lan_address()
        if lan:
            port = f":{parts.port}" if parts.port else ""
            return f"{parts.scheme}://{lan}{port}{parts.path.rstrip('/')}/"
    return request_url_root.rstrip("/") + "/"
