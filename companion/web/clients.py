"""Who a request comes from, for what is counted per client: its address as `TRUSTED_PROXIES` resolves it
(app.py's ProxyFix: the one the nearest trusted proxy saw), an IPv6 client by its /64.

An IPv6 home, phone or office network is given a whole /64 (RFC 6177), and a device there may use a new
address of it for each connection: counted by address, one client would be thousands of clients.
"""

from __future__ import annotations

import ipaddress

from flask import request


def client_key() -> str:
    """The client of this request, as the limits count it (the streams' budget: web/stream.py)."""
    return address_key(request.remote_addr)


def address_key(address: str | None) -> str:
    """An IPv4 address as itself, an IPv6 one as its /64 network (an IPv4-mapped one as the IPv4 address)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or ""            # not an address (a Unix socket): counted as it is written
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)
