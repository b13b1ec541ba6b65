"""Hostile or broken mafclub/1 files: every case is refused with a message naming the game, the field and the limit.

Each case is fired at `manage.py import_protocols` (run as from the shell: exit status 1, the problem lines on
stderr, no traceback) and at the upload page (400 with the problems listed), and the database is unchanged — on
whichever database the run uses, so SQLite and PostgreSQL answer the same. The reader itself is fuzzed with
hypothesis: no JSON value makes it raise, and no mutation of a valid game makes the import fail other than with
its list of problems.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connections
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.models import Club, Membership
from games.management.commands.import_protocols import Command as ImportCommand
from games.protocol.services.imports import ImportFailed, import_documents
from games.protocol.tests.test_import_export import document, ex1_game
from games.rules.interchange import parse_document

pytestmark = pytest.mark.django_db

DEEP = 100_000


def _doc(mutate=None, **header) -> dict:
    game = ex1_game(7)
    data = document(game, **header)
    if mutate:
        mutate(data, data["games"][0])
    return data


def _game(key, value):
    def mutate(data, game):
        game[key] = value
    return mutate


def _seat(key, value):
    def mutate(data, game):
        game["seats"][4][key] = value
    return mutate


def _header(key, value):
    def mutate(data, game):
        data["tournament"][key] = value
    return mutate


def _bytes(data) -> bytes:
    return data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()


# (id, the file's bytes, what the problem line must contain: location and limit)
CASES = [
    ("deep-list", b"[" * DEEP + b"]" * DEEP, ["document: broken JSON: nested too deeply"]),
    ("deep-object", b'{"a":' * DEEP + b"1" + b"}" * DEEP, ["document: broken JSON: nested too deeply"]),
    ("deep-inside-a-game", (b'{"format": "mafclub/1", "games": [{"number": 1, "days": ' + b"[" * DEEP
                            + b"]" * DEEP + b"}]}"), ["document: broken JSON: nested too deeply"]),
    ("an-integer-of-5000-digits", b'{"format": "mafclub/1", "games": [{"number": 1' + b"0" * 5000 + b"}]}",
     ["document: broken JSON", "4300"]),
    ("binary-garbage", b"\xff\xfe\xfd\x00\x01garbage", ["document: broken JSON"]),
    ("a-raw-nul-byte-in-a-string", _bytes(_doc()).replace("Судья Петров".encode(), b"\x00"),
     ["document: broken JSON"]),
    ("number-1e20-float", _bytes(_doc(_game("number", 1e20))), ["game #1: number: must be a whole number"]),
    ("number-10**20", _bytes(_doc(_game("number", 10**20))), ["game #1: number: must be between 1 and 2147483647"]),
    ("number-negative", _bytes(_doc(_game("number", -5))), ["game #1: number: must be between 1 and 2147483647"]),
    ("number-bool", _bytes(_doc(_game("number", True))), ["game #1: number: must be a whole number"]),
    ("number-float", _bytes(_doc(_game("number", 1.5))), ["game #1: number: must be a whole number"]),
    ("table-10**20", _bytes(_doc(_game("table", 10**20))), ["game 7: table: must be between 1 and 2147483647"]),
    ("table-1e20", _bytes(_doc(_game("table", 1e20))), ["game 7: table: must be a whole number"]),
    ("table-negative", _bytes(_doc(_game("table", -1))), ["game 7: table: must be between 1 and 2147483647"]),
    ("table-bool", _bytes(_doc(_game("table", False))), ["game 7: table: must be a whole number"]),
    ("table-float", _bytes(_doc(_game("table", 2.5))), ["game 7: table: must be a whole number"]),
    ("lot-10**20", _bytes(_doc(_header("lots", {"Гром": 10**20}))), ["game -: tournament.lots:", "2147483647"]),
    ("lot-1e20", _bytes(_doc(_header("lots", {"Гром": 1e20}))), ["game -: tournament.lots:", "2147483647"]),
    ("lot-negative", _bytes(_doc(_header("lots", {"Гром": -3}))), ["game -: tournament.lots:"]),
    ("lot-bool", _bytes(_doc(_header("lots", {"Гром": True}))), ["game -: tournament.lots:"]),
    ("lot-float", _bytes(_doc(_header("lots", {"Гром": 1.5}))), ["game -: tournament.lots:"]),
    ("fouls-10**20", _bytes(_doc(_seat("fouls", 10**20))), ["game 7: seats[5].fouls: must be between 0 and 4"]),
    ("points-10**30", _bytes(_doc(lambda d, g: g["judge_extras"][0].update(points=10**30))),
     ["game 7: judge_extras[0].points: must be between", "99999999.999999"]),
    ("points-1e300", _bytes(_doc(lambda d, g: g["judge_extras"][0].update(points=1e300))),
     ["game 7: judge_extras[0].points: must be between"]),
    ("date-2026-02-30", _bytes(_doc(_game("date", "2026-02-30"))), ["game 7: date: must be an ISO date"]),
    ("date-garbage", _bytes(_doc(_game("date", "вчера"))), ["game 7: date: must be an ISO date"]),
    ("ended-at-2026-02-30", _bytes(_doc(_game("ended_at", "2026-02-30T19:05:00+03:00"))),
     ["game 7: ended_at: must be an ISO date-time"]),
    ("ended-at-hour-25", _bytes(_doc(_game("ended_at", "2026-11-28T25:05:00"))),
     ["game 7: ended_at: must be an ISO date-time"]),
    ("ended-at-malformed", _bytes(_doc(_game("ended_at", "28.11.2026 19:05"))),
     ["game 7: ended_at: must be an ISO date-time"]),
    ("ended-at-number", _bytes(_doc(_game("ended_at", 1764346000))), ["game 7: ended_at: must be text"]),
    ("stage-101", _bytes(_doc(_game("stage", "Э" * 101))), ["game 7: stage: must be at most 100 characters"]),
    ("judge-121", _bytes(_doc(_game("judge", "С" * 121))), ["game 7: judge: must be at most 120 characters"]),
    ("tournament-201", _bytes(_doc(name="Т" * 201)), ["game -: tournament.name: must be at most 200 characters"]),
    ("nickname-41", _bytes(_doc(_seat("player", "Н" * 41))), ["game 7: seats[5].player:", "40"]),
    ("removal-at-5", _bytes(_doc(_game("removals", [{"seat": 5, "reason": "fouls", "at": "D1000"}]))),
     ["game 7: removals[0].at"]),
    ("removal-note-301", _bytes(_doc(_game("removals", [{"seat": 5, "reason": "fouls", "at": "D1",
                                                           "note": "з" * 301}]))),
     ["game 7: removals[0].note: must be at most 300 characters"]),
    ("extra-note-501", _bytes(_doc(lambda d, g: g["judge_extras"][0].update(note="з" * 501))),
     ["game 7: judge_extras[0].note: must be at most 500 characters"]),
    ("adjustment-clause-121", _bytes(_doc(_game("adjustments", [{"seat": 5, "points": -0.5, "clause": "к" * 121}]))),
     ["game 7: adjustments[0].clause: must be at most 120 characters"]),
    ("nul-in-nickname", _bytes(_doc(_seat("player", "Во\x00рон"))),
     ["game 7: seats[4].player: must not contain the NUL character"]),
    ("nul-in-stage", _bytes(_doc(_game("stage", "От\x00бор"))), ["game 7: stage: must not contain the NUL"]),
    ("nul-in-judge", _bytes(_doc(_game("judge", "\x00"))), ["game 7: judge: must not contain the NUL"]),
    ("nul-in-date", _bytes(_doc(_game("date", "2026-11-28\x00"))), ["game 7: date: must not contain the NUL"]),
    ("nul-in-tournament", _bytes(_doc(name="Ку\x00бок")), ["game -: tournament.name: must not contain the NUL"]),
    ("nul-in-ruleset", _bytes(_doc(ruleset="cml\x00")), ["game -: tournament.ruleset: must not contain the NUL"]),
    ("nul-in-stages", _bytes(_doc(_header("stages", ["Фи\x00нал"]))),
     ["game -: tournament.stages[0]: must not contain the NUL"]),
    ("nul-in-a-lot-nickname", _bytes(_doc(_header("lots", {"Гр\x00ом": 1}))),
     ["game -: tournament.lots: must not contain the NUL"]),
    ("nul-in-a-note", _bytes(_doc(lambda d, g: g["judge_extras"][1].update(note="+\x002"))),
     ["game 7: judge_extras[1].note: must not contain the NUL"]),
]


def snapshot() -> dict[str, list]:
    from django.apps import apps

    return {m._meta.label: list(m._default_manager.order_by("pk").values()) for m in apps.get_models()
            if m._meta.label != "sessions.Session"}


@pytest.fixture
def club_admin(django_user_model):
    club = Club.objects.create(name="Полночь")
    user = django_user_model.objects.create_user("boss", password="pw-123456-x")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    return user


def _run_command(monkeypatch, capsys, *args) -> tuple[int, str]:
    """`manage.py import_protocols ARGS` as the shell runs it: CommandError becomes exit status 1 and a line on
    stderr; any other exception would escape here (a traceback) and fail the test."""
    monkeypatch.setattr(connections, "close_all", lambda: None)  # run_from_argv closes them; the test needs its own
    with pytest.raises(SystemExit) as exit_info:
        ImportCommand().run_from_argv(["manage.py", "import_protocols", *args])
    return exit_info.value.code, capsys.readouterr().err


@pytest.mark.parametrize("raw, expected", [pytest.param(raw, expected, id=name) for name, raw, expected in CASES])
def test_the_command_refuses_with_exit_1_and_names_the_field(tmp_path, monkeypatch, capsys, club_admin, raw, expected):
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    before = snapshot()
    status, err = _run_command(monkeypatch, capsys, str(path))
    assert status == 1
    assert "Traceback" not in err
    assert "nothing was imported" in err
    lines = [line for line in err.splitlines() if line.startswith(f"{path}: ")]
    assert lines, err
    assert any(all(part in line for part in expected) for line in lines), err
    assert snapshot() == before


@pytest.mark.parametrize("raw, expected", [pytest.param(raw, expected, id=name) for name, raw, expected in CASES])
def test_the_upload_page_answers_400_with_the_problems(client, club_admin, raw, expected):
    client.force_login(club_admin)
    before = snapshot()
    response = client.post(reverse("games:import"), {"files": [SimpleUploadedFile("bad.json", raw)]})
    assert response.status_code == 400
    problems = response.context["problems"]
    if expected[0].startswith("document: broken JSON"):
        # the page says it in the reader's words, not the decoder's English ("Expecting ',' delimiter")
        assert any(line.startswith("bad.json: ") and "JSON" in line and re.search("[а-яё]", line)
                   and "broken" not in line for line in problems), problems
    else:
        location = expected[0].split(": must")[0].split(": broken")[0]
        assert any(line.startswith(f"bad.json: {location}") for line in problems), problems
    assert snapshot() == before


def test_an_over_long_club_name_is_refused_by_the_command(tmp_path, monkeypatch, capsys):
    path = tmp_path / "good.json"
    path.write_bytes(_bytes(_doc()))
    status, err = _run_command(monkeypatch, capsys, str(path), "--club", "К" * 121)
    assert status == 1 and "Traceback" not in err
    assert "--club: club: must be at most 120 characters" in err
    assert not Club.objects.exists()


def _deadlock(**kwargs):
    raise OperationalError("deadlock detected")  # what PostgreSQL answers the victim of two lock orders


def test_a_deadlock_during_the_import_is_a_message_of_the_command_not_a_traceback(tmp_path, monkeypatch, capsys,
                                                                                 club_admin):
    path = tmp_path / "good.json"
    path.write_bytes(_bytes(_doc()))
    monkeypatch.setattr("games.protocol.services.imports.score_games", _deadlock)
    before = snapshot()
    status, err = _run_command(monkeypatch, capsys, str(path))
    assert status == 1 and "Traceback" not in err
    assert "the database was busy with another write" in err and "run the import again" in err
    assert snapshot() == before


def test_a_deadlock_during_the_import_is_a_message_on_the_upload_page(client, club_admin, monkeypatch):
    monkeypatch.setattr("games.protocol.services.imports.score_games", _deadlock)
    client.force_login(club_admin)
    before = snapshot()
    response = client.post(reverse("games:import"), {"files": [SimpleUploadedFile("good.json", _bytes(_doc()))]})
    assert response.status_code == 400
    assert any("импорт" in line.lower() and "занята" in line for line in response.context["problems"]), \
        response.context["problems"]
    assert snapshot() == before


def test_the_good_document_of_these_cases_imports(tmp_path, monkeypatch, capsys, club_admin):
    """The positive control: the file every case breaks is itself accepted."""
    path = tmp_path / "good.json"
    path.write_bytes(_bytes(_doc()))
    monkeypatch.setattr(connections, "close_all", lambda: None)
    ImportCommand().run_from_argv(["manage.py", "import_protocols", str(path)])
    assert "1 new game" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------------- hypothesis

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(data=JSON_VALUES)
def test_the_reader_never_raises_on_any_json_value(data):
    parse_document(data)
    parse_document({"format": "mafclub/1", "tournament": data, "games": [data]})


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    yield path


GOOD = _doc()
GOOD_PATHS = sorted(set(_leaves(GOOD)), key=repr)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(GOOD_PATHS), value=JSON_VALUES | st.integers(min_value=2**31 - 5, max_value=2**70)
       | st.text(min_size=100, max_size=700) | st.just("\x00"))
def test_any_single_mutation_imports_or_fails_with_problems(club_admin, path, value):
    data = copy.deepcopy(GOOD)
    if path:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    else:
        data = value
    club = Club.objects.get()
    try:
        import_documents(documents=[("fuzz.json", json.dumps(data))], club=club, by=club_admin)
    except ImportFailed as exc:
        assert exc.problems and all(line.startswith("fuzz.json: ") for line in exc.problems)
