"""The audit catches a planted leak."""

from __future__ import annotations

from .walks import report, round_two_in_play


def _plant(monkeypatch, app, world, leak):
    from companion import views
    from companion.web import api
    import companion.web.pages.rendering as pages
    from flask import session

    if leak == "keywords":  # one team's keywords in everyone's view
        real = views._team

        def _team(game, team, my_team):
            view = real(game, team, my_team)
            view["keywords"] = list(game.keywords.get(team, ())) or None
            return view

        monkeypatch.setattr(views, "_team", _team)
    elif leak == "code":  # the current codes under a new field of the view
        real_view = views.view_for

        def view_for(game, viewer, *args, **kwargs):
            view = real_view(game, viewer, *args, **kwargs)
            view["next_codes"] = {t: list(x.code) for t, x in game.round.transmissions.items()}
            return view

        monkeypatch.setattr(api, "view_for", view_for)
        monkeypatch.setattr(pages, "view_for", view_for)
    elif leak == "sealed guess":  # every guess shown to everyone before the reveal
        real_guess = views._guess
        monkeypatch.setattr(views, "_guess", lambda guess, visible: real_guess(guess, True))
    elif leak == "page code":  # the pages (not the API) show every code in the note sheet
        real_view = views.view_for

        def page_view(game, viewer, *args, **kwargs):
            view = real_view(game, viewer, *args, **kwargs)
            for rv, r in zip(view["rounds"], game.rounds, strict=True):
                for team, tv in rv["transmissions"].items():
                    tv["code"] = list(r.transmissions[team].code)
            return view

        monkeypatch.setattr(pages, "view_for", page_view)
    elif leak == "spelled-out code":  # the pages write White's current code as plain digits
        real_render = pages.render_template
        code = world.code("white")

        def render_template(*args, **kwargs):
            return real_render(*args, **kwargs).replace("</main>", f"<p>{code[0]} {code[1]} {code[2]}</p></main>")

        monkeypatch.setattr(pages, "render_template", render_template)
    elif leak == "notes":  # White's notes on every seated player's phone
        real_notes = views._notes
        monkeypatch.setattr(views, "_notes", lambda game, team: real_notes(game, "white"))
    elif leak == "header":  # the host token in a response header

        def header(response):
            response.headers["X-Debug"] = world.tokens["host"]
            return response

        app.after_request_funcs.setdefault(None, []).append(header)
    elif leak == "cookie":  # another token kept in every browser's session cookie

        def remember():
            session["spectating"] = world.tokens["spectator"]

        app.before_request_funcs.setdefault(None, []).append(remember)


PLANTS = {  # the leak -> a piece of the problem the audit must report
    "keywords": "'s keyword QZX",
    "code": "a code-like value",
    "sealed guess": "interception",
    "page code": "in the note sheet before its reveal",
    "spelled-out code": "spelled out",
    "notes": "white's note ZKNOTEPLANTW",
    "header": "host token",
    "cookie": "session",
}


def test_a_planted_leak_is_caught(app, monkeypatch):
    """The same audit as the walks goes red as soon as one forbidden field reaches one viewer."""
    world = round_two_in_play(app)
    assert world.audit("baseline") == [], report(world.problems)
    hooks = (list(app.before_request_funcs.get(None, [])), list(app.after_request_funcs.get(None, [])))
    for leak, expected in PLANTS.items():
        with monkeypatch.context() as patch:
            _plant(patch, app, world, leak)
            problems = world.audit(f"planted: {leak}")
        app.before_request_funcs[None], app.after_request_funcs[None] = list(hooks[0]), list(hooks[1])
        assert problems, f"the audit missed a planted leak of {leak}"
        assert any(expected in p for p in problems), report(problems, 5)
