"""Believe a proxy only from the proxy: a request's `X-Forwarded-For` names its client only when the request
came from one of the proxies named in `FORWARDED_ALLOW_IPS` (the setting gunicorn reads for the scheme
header); from anyone else the header is the sender's own word, and the sender is its own address."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

# Where a proxy on this machine connects from (gunicorn's own default, which `companion.serve` passes on).
LOCAL_PROXIES = "127.0.0.1,::1"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(setting: str) -> list[Network] | None:
    """The networks of `FORWARDED_ALLOW_IPS` as gunicorn reads it (addresses or CIDR networks, comma
    separated); None for `*`, every peer."""
    words = [word.strip() for word in setting.split(",") if word.strip()]
    if "*" in words:
        return None
    return [ipaddress.ip_network(word, strict=False) for word in words]


class BehindProxies:
    """A WSGI app whose requests from a named proxy get the client's address the nearest `hops` proxies saw
    (werkzeug's ProxyFix); every other request keeps its own address, whatever its headers say."""

    def __init__(self, app: Any, hops: int, allowed: str):
        self.app, self.networks = app, proxy_networks(allowed)
        self.from_proxy = ProxyFix(app, x_for=hops, x_proto=0, x_host=0)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        app = self.from_proxy if self.is_proxy(environ.get("REMOTE_ADDR")) else self.app
        answer: Iterable[bytes] = app(environ, start_response)
        return answer

    def is_proxy(self, peer: str | None) -> bool:
        if self.networks is None:
            return True
        try:
            address = ipaddress.ip_address(peer or "")
        except ValueError:
            return peer is None  # no address: a Unix socket, which gunicorn believes too
        if address.version == 6 and address.ipv4_mapped:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)
