"""HTML pages: the home page, the table screen, joining, each phone, a seat's new link, the spectator.

Every page is rendered from `view_for(...)` only (pages/rendering.py). Command forms post here: without
JavaScript the answer is a redirect back to the page (or the page with the refusal); the pages' script posts
the same form asking for JSON, and gets the JSON API's answer and refusals. One blueprint, a module per
screen: home.py (creating a game, the try-out, the rules), table.py (the table screen and the spectators'),
phone.py (joining, a seat's new link, a player's phone).
"""

from flask import Blueprint

pages = Blueprint("pages", __name__)

from . import home, phone, table  # noqa: E402,F401  (each adds its routes to `pages`)
