"""Rate limits on what a stranger could flood: creating games, trying to take seats, guessing join codes,
sending commands.

In-memory per process by default (`RATE_LIMIT_STORAGE`, e.g. `redis://...`, shares them between workers
and servers). A table of eight phones joining at once is far below the limits; `RATE_LIMITS=off` turns
them off (the load tests play a hundred tables from one address).

Each limit counts per client (`client_key`): an IPv4 address, or an IPv6 address's /64 network.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, g, request
from flask_limiter import Limiter

from ..rules.commands import COMMANDS

# endpoint -> the config keys of its limits (each limit keeps its own count, by its config key)
LIMITED = {
    "pages.create_game": ("RATE_LIMIT_CREATE",),
    "pages.create_try_out": ("RATE_LIMIT_CREATE",),
    "api.create_game": ("RATE_LIMIT_CREATE",),
    "pages.join_submit": ("RATE_LIMIT_JOIN",),
    "pages.seat_link_claim": ("RATE_LIMIT_JOIN",),
    "api.game_command": ("RATE_LIMIT_COMMANDS", "RATE_LIMIT_JOIN"),
    "pages.table_command": ("RATE_LIMIT_COMMANDS",),  # the same commands from the pages' forms
    "pages.play_command": ("RATE_LIMIT_COMMANDS",),
    "pages.try_out_switch": ("RATE_LIMIT_COMMANDS",),
    "pages.table_move_issue": ("RATE_LIMIT_COMMANDS",),
    "pages.table_move_use": ("RATE_LIMIT_JOIN",),  # a one-time link, like a seat link
    "pages.join_by_code": ("RATE_LIMIT_JOIN_CODE",),
}
_SEATING_COMMANDS = tuple(name for name, c in COMMANDS.items() if c.seats_a_phone)
_IPV6_NETWORK = 64  # what a provider gives one home or one phone: its holder has 2^64 addresses to use


def client_key() -> str:
    """Who the request counts as, for anything counted per client: its address (behind `TRUSTED_PROXIES`,
    the one the nearest proxy saw), an IPv6 address by its /64 network, an IPv4-mapped one (::ffff:a.b.c.d)
    as the IPv4 address."""
    return client_key_of(request.remote_addr)


def client_key_of(address: str | None) -> str:
    """The client an address counts as (see client_key)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "unknown"  # no address (a test client, a Unix socket): one client
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        network = int(ip) >> (128 - _IPV6_NETWORK) << (128 - _IPV6_NETWORK)  # a scope (%eth0) drops too
        return f"{ipaddress.IPv6Address(network)}/{_IPV6_NETWORK}"
    return str(ip)


def _not_seating() -> bool:
    """Only the API's seating commands count against the join limit."""
    return request.endpoint == "api.game_command" and (request.view_args or {}).get("command") not in _SEATING_COMMANDS


def _refused(response: Response) -> bool:
    """Only join codes that open nothing count against their limit: a table of phones behind one address that
    types its codes right is never held up. (A page form's refusal answers a redirect: pages/after_form.py.)"""
    return response.status_code >= 400 or bool(g.get("form_refused"))


def init_limits(app: Flask) -> None:
    """One limiter per app (its counters belong to this app), wrapped around the registered views."""
    limiter = Limiter(
        client_key,
        app=app,
        storage_uri=app.config["RATE_LIMIT_STORAGE"],
        enabled=app.config["RATE_LIMITS"] != "off",
        headers_enabled=True,
    )
    for endpoint, keys in LIMITED.items():
        view: Callable[..., Any] = app.view_functions[endpoint]
        for key in keys:
            exempt = _not_seating if key == "RATE_LIMIT_JOIN" else None
            deduct = _refused if key == "RATE_LIMIT_JOIN_CODE" else None
            view = limiter.shared_limit(app.config[key], scope=key, exempt_when=exempt, deduct_when=deduct)(view)
        app.view_functions[endpoint] = view
    app.extensions["rate_limits"] = limiter
