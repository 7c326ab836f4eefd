"""The declarations that generate the rest (issue 22): field kinds read JSON and forms and write their schema,
every target is declared as a path into the view, and the templates' phase and task names are checked."""

import pytest

from companion.rules import fields
from companion.rules.commands import BY_TYPE, COMMANDS, targets_for
from companion.rules.errors import RuleError
from companion.rules.state import PHASES, Game


def form(**values):
    """A form's `getlist`, as a plain mapping gives it (the rules need no web framework)."""
    return lambda name: list(values.get(name, ()))


def test_every_example_body_is_its_commands_fields():
    for name, command in BY_TYPE.items():
        declared = {f.name for f in (*command.fields, *command.targets)}
        assert set(command.example) <= declared, name
        assert {f.name for f in command.fields if f.required} <= set(command.example), name
        for f in (*command.fields, *command.targets):
            if f.name in command.example:
                assert f.kind.accepts(command.example[f.name]), (name, f.name)


def test_every_refusal_a_declaration_implies_is_among_its_refusals():
    """What the rules check before a handler, and what a field refuses, is in the command's `refusals` (and so
    in the OpenAPI document): the phases it is not legal in, a try-out's fixed seats, each field's refusal."""
    for name, command in BY_TYPE.items():
        implied = {command().phase_problem(Game(phase=phase)) for phase in PHASES if phase not in command.phases}
        implied |= {f.refusal for f in command.fields}
        if command.real_game_only:
            implied.add("try_out_fixed_seats")
        assert implied <= set(command.refusals), (name, implied - set(command.refusals))


def test_a_command_without_its_declaration_is_refused_at_import():
    from companion.rules.command import HostCommand

    with pytest.raises(TypeError, match="NoPhases declares no phases"):
        type("NoPhases", (HostCommand,), {"summary": "", "description": "", "example": {}})
    with pytest.raises(TypeError, match="two commands named start"):
        type("Start", (HostCommand,), {"phases": (), "summary": "", "description": "", "example": {}})


def test_each_commands_names_come_from_its_class_name():
    pause = BY_TYPE["pause_timer"]
    assert (pause.__name__, pause.name, pause.type, pause.operation_id) == (
        "PauseTimer",
        "pause-timer",
        "pause_timer",
        "pauseTimer",
    )
    assert {c.type for c in COMMANDS.values()} | {
        "create",
        "offer_table_move",
        "cancel_table_move",
        "take_table",
    } == set(BY_TYPE)


def test_a_field_kind_reads_a_form_as_the_rules_expect():
    assert fields.BOOLEAN.from_form("confirm", form(confirm=["1"])) is True
    assert fields.BOOLEAN.from_form("confirm", form(confirm=["0"])) is False
    assert fields.SEAT.from_form("seat", form(seat=["12"])) == 12
    assert fields.SEAT.from_form("seat", form(seat=["١٢"])) == "١٢"  # not ASCII digits: left for the rules
    assert fields.TIMER.from_form("timer", form(timer=[" "])) is None  # blank: no sand timer
    assert fields.CODE.from_form("code", form(code1=["3"], code2=["1"])) == ["3", "1", ""]  # one radio a clue
    assert fields.CLUES.from_form("clues", form(clues=["a", "b", "c"])) == ["a", "b", "c"]
    assert fields.VERDICTS.from_form("verdicts", form(**{"verdicts.white": ["1", "4"]})) == {
        "white": [True, False, False, True],
        "black": [False, False, False, False],
    }
    with pytest.raises(KeyError):
        fields.TEXT.from_form("name", form())


def test_a_field_kind_refuses_json_of_another_type_with_the_handlers_code():
    with pytest.raises(RuleError) as refused:
        fields.BOOLEAN.parse(1, "accept_malformed")
    assert refused.value.code == "accept_malformed"
    for wrong in (True, 2.0, 0, 5, "2"):
        assert not fields.DIGIT.accepts(wrong), wrong
    assert fields.CODE.parse("3-1-4", "guess_malformed") == (3, 1, 4)
    assert fields.TIMER.accepts(None) and not fields.TIMER.accepts(9)


def test_every_target_is_declared_with_its_place_in_the_view():
    for name, command in BY_TYPE.items():
        for target in command.targets:
            assert target.path, (name, target.name)


def test_targets_for_reads_each_declared_path():
    view = {
        "match": 2,
        "round": 3,
        "teams": {
            "white": {"players": [{"seat": 1, "name": "Ann"}]},
            "black": {"players": [{"seat": 4, "name": "Bob"}]},
        },
        "rounds": [{"transmissions": {"black": {"encryptor": 4}}}],
        "host": {"take_back": None},
    }
    assert targets_for("move-player", view, {"seat": 4}) == {"team": "black"}
    assert targets_for("seat-link", view, {"seat": 1}) == {"name": "Ann"}
    assert targets_for("skip-encryptor", view, {"team": "black"}) == {"round": 3, "encryptor": 4}
    assert targets_for("take-back", view) == {}  # nothing to take back: no target at all
    with pytest.raises(KeyError):
        targets_for("no-such-command", view)  # a template's typo fails its page


def test_templates_name_phases_and_tasks_through_checked_globals(app):
    env = app.jinja_env
    assert env.from_string("{{ PHASE.keyword_judging }} {{ TASK.decrypt }}").render() == "keyword_judging decrypt"
    for phase in PHASES:
        assert env.from_string("{{ PHASE." + phase + " }}").render() == phase
    with pytest.raises(LookupError):
        env.from_string("{{ PHASE.keyword_judgeing }}").render()


def test_a_transmission_guess_for_a_team_is_the_rules_own(app):
    guess_by = app.jinja_env.globals["guess_by"]
    t = {"team": "white", "decryption": {"code": [1, 2, 3]}, "interception": None}
    assert guess_by(t, "white") == {"code": [1, 2, 3]}
    assert guess_by(t, "black") is None
