"""What pages and the JSON API both answer: a game's links and addresses, and a command's answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from flask import current_app, request

from ..addresses import public_base_url
from ..rules.access import Kind
from .auth import service

if TYPE_CHECKING:
    from ..games import Outcome


def game_links(game_id: str) -> dict[str, dict[str, str]]:
    """The game's shareable tokens and the addresses built on them (QR codes, links, the API's answer),
    and each team's join code."""
    tokens = service().shared_tokens(game_id)
    return {"tokens": tokens, "urls": addresses(tokens), "codes": service().join_codes(game_id)}


def addresses(tokens: dict[str, str]) -> dict[str, str]:
    """The addresses built on the game's shareable tokens (`GameService.shared_tokens`)."""
    base = base_url()
    urls = {"table": f"{base}table/{tokens[Kind.HOST]}"}
    if Kind.SPECTATOR in tokens:  # a try-out has no join links and no spectators
        urls.update(
            spectator=f"{base}watch/{tokens[Kind.SPECTATOR]}",
            white=f"{base}join/{tokens['white']}",
            black=f"{base}join/{tokens['black']}",
        )
    return urls


def base_url() -> str:
    return public_base_url(request.url_root, current_app.config["PUBLIC_URL"])


def root_certificate_url() -> str:
    """Where a phone downloads the root certificate (`ROOT_CERT`): on plain http, the only way a phone that
    does not trust the table yet gets it without a warning; at the public address's host, on port 80, where
    the Caddy recipe hands it out (docs/Caddyfile)."""
    host = urlsplit(base_url()).hostname or ""
    return f"http://{f'[{host}]' if ':' in host else host}/root.crt"


def seat_link_url(token: str) -> str:
    """The address a new phone opens (or scans) to take over a seat."""
    return f"{base_url()}seat/{token}"


def command_answer(outcome: Outcome) -> dict[str, Any]:
    """A command's JSON answer, for the API and for a page's script alike."""
    answer: dict[str, Any] = {"version": outcome.version, "events": [e.type for e in outcome.events]}
    if outcome.seat_link:  # for the host to pass on (the table screen shows it as a QR code)
        answer["seat_link"] = {"token": outcome.seat_link, "url": seat_link_url(outcome.seat_link)}
    if outcome.seat_token:
        answer["seat"] = outcome.seat
        answer["token"] = outcome.seat_token
    return answer
