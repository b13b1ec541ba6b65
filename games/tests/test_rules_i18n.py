"""The engine's messages are translatable (games/rules/i18n.py): English text unchanged, Russian on the site."""

from __future__ import annotations

import ast
import copy
import json
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from club.models import Club, Membership
from games.i18n import localize, note_text, problem_text
from games.models import Game, Seat
from games.protocol.tests.test_import_export import document, ex1_game
from games.rules.generate import generate_games
from games.rules.interchange import parse_document
from games.rules.protocol import Adjustment, Colour, JudgeExtra, Nomination, Removal, Tally
from games.rules.ruleset import PRESETS
from games.rules.scoring import NOTE_TEMPLATES
from games.rules.validate import validate
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

RULES = Path(__file__).resolve().parent.parent / "rules"


# ---------------------------------------------------------------------------------------------------- pure


def _mutations(rng: random.Random):
    """Ways to break a valid protocol, each reaching other checks of validate()/limits."""
    def seat(p):
        return rng.choice(p.seats)

    return [
        lambda p: setattr(seat(p), "fouls", rng.choice([4, 5, -1])),
        lambda p: setattr(seat(p), "role", rng.choice([None, "X", "Ч"])),
        lambda p: setattr(seat(p), "player", p.seats[0].player),
        lambda p: setattr(seat(p), "seat", rng.choice([0, 11, 3])),
        lambda p: p.seats.pop(),
        lambda p: setattr(p, "result", rng.choice(["red", "black", "draw", None, "blue"])),
        lambda p: p.removals.append(Removal(rng.randint(0, 11), rng.choice(["fouls", "ppk", "disqualified", "x"]),
                                            rng.choice(["D1", "N1", "D9", "Q", "D2"]), rng.random() < 0.5)),
        lambda p: p.days and setattr(p.days[0], "votes", [Tally(s.seat, rng.randint(-1, 4)) for s in p.seats[:3]]),
        lambda p: p.days and setattr(p.days[0], "out", [rng.randint(1, 10)] * rng.randint(1, 2)),
        lambda p: p.days and setattr(p.days[-1], "lift", rng.randint(0, 12)),
        lambda p: p.days and setattr(p.days[0], "nominations",
                                     [Nomination(rng.randint(0, 11), rng.randint(0, 11), rng.random() < 0.2)
                                      for _ in range(rng.randint(0, 4))]),
        lambda p: p.days and p.days[0].votes and p.days[0].revotes.append(
            [Tally(t.seat, rng.randint(0, 5)) for t in p.days[0].votes]),
        lambda p: p.nights and setattr(p.nights[0], rng.choice(["kill", "don_check", "sheriff_check"]),
                                       rng.randint(0, 11)),
        lambda p: p.nights.append(copy.deepcopy(p.nights[-1])) if p.nights else None,
        lambda p: p.days.append(copy.deepcopy(p.days[-1])) if p.days else None,
        lambda p: setattr(p, "best_move", [rng.randint(0, 11) for _ in range(rng.randint(1, 4))]),
        lambda p: p.colours.append(Colour(rng.randint(1, 10), rng.randint(0, 11))),
        lambda p: p.judge_extras.append(JudgeExtra(rng.randint(0, 11), Decimal(rng.choice(["0.2", "0.5", "0.7",
                                                                                            "0.9", "1.3"])))),
        lambda p: p.adjustments.append(Adjustment(rng.randint(0, 11), Decimal("-0.3"),
                                                  rng.choice(["", "002 III.6/-0.3 #1", "002 III.1.5"]))),
    ]


def _engine_problems():
    rng = random.Random(7)
    for slug, ruleset in PRESETS.items():
        for protocol in generate_games(40, ruleset, seed=len(slug)):
            for _ in range(3):
                broken = copy.deepcopy(protocol)
                for mutate in rng.sample(_mutations(rng), rng.randint(1, 4)):
                    mutate(broken)
                try:
                    problems = validate(broken, ruleset, finished=rng.random() < 0.8)
                except Exception:  # noqa: BLE001 - a mutation the validator does not expect is not this test's job
                    continue
                yield from problems
    bad_docs = [[], {"format": "x", "tournament": {"name": "", "ruleset": "", "difficult_roles": ["Q"], "lots": 3},
                     "games": {}},
                {"format": "mafclub/1", "tournament": {"name": "T", "ruleset": "cml"},
                 "games": [{"number": 1, "seats": [{"seat": 1, "player": "", "role": "Q", "fouls": 9}, "x"],
                            "days": [{"votes": [{"seat": True, "votes": "2"}]}], "nights": "n",
                            "removals": [{"seat": 1, "reason": "why", "at": 5}],
                            "judge_extras": [{"seat": 1, "points": "abc"}, {"seat": 2, "points": "Infinity"}],
                            "result": "blue"}, {"seats": []}, {"number": 1}]}]
    for data in bad_docs:
        yield from (gp.problem for gp in parse_document(data).problems)


def test_every_engine_problem_is_its_template_filled_with_its_params():
    templates = set()
    for problem in _engine_problems():
        assert problem.template, f"an untranslatable message: {problem}"
        assert problem.template % problem.params == problem.message
        templates.add(problem.template)
        with translation.override("ru"):
            russian = problem_text(problem)
        assert russian != problem.message, f"not translated into Russian: {problem.template!r}"
        with translation.override("en"):
            assert problem_text(problem) == problem.message
    assert len(templates) >= 60  # the mutations reach most of the ~100 templates


def _message_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("error", "warning"):
            yield node


def test_no_engine_message_is_an_english_only_string():
    """error()/warning() in games/rules only take a Text; every message goes through error_t()/warning_t()."""
    for path in RULES.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _message_calls(tree):
            message = call.args[1] if len(call.args) > 1 else None
            assert not isinstance(message, (ast.JoinedStr, ast.Constant)), f"{path.name}:{call.lineno}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("error_t", "warning_t", "fail"):
                template = node.args[1] if len(node.args) > 1 else None
                assert not isinstance(template, ast.JoinedStr), f"{path.name}:{node.lineno}: an f-string template"


def test_every_marked_template_has_a_russian_translation():
    source = "\n".join(p.read_text(encoding="utf-8") for p in RULES.glob("*.py"))
    templates = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_":
            parts = node.args[0]
            templates.add(parts.value)
    assert len(templates) > 100
    with translation.override("ru"):
        missing = [t for t in templates if translation.gettext(t) == t]
    assert missing == []
    for template in templates:  # a Russian text uses exactly the English placeholders
        with translation.override("ru"):
            ours = translation.gettext(template)
        assert set(re.findall(r"%\((\w+)\)s", ours)) == set(re.findall(r"%\((\w+)\)s", template)), template


def test_stored_engine_notes_are_shown_in_the_readers_language():
    assert len(NOTE_TEMPLATES) == 3
    with translation.override("ru"):
        assert note_text("2 blacks named") == "названо чёрных: 2"
        assert note_text("recorded 4 as black; 4 is red") == "записал 4 чёрным; 4 — красный"
        assert note_text("3 blacks named; a judge extra at least as large counts instead (002 III.4)") == (
            "названо чёрных: 3; вместо него учитывается доп. балл судьи не меньшего размера (002 III.4)")
        assert note_text("a judge's own words") == "a judge's own words"
        assert note_text("recorded 4 as black; 5 is red") == "recorded 4 as black; 5 is red"
    with translation.override("en"):
        assert note_text("2 blacks named") == "2 blacks named"


def test_clauses_with_reasons_are_translated_as_a_whole():
    from games.rules.facts import best_move_right

    protocol = next(generate_games(1, PRESETS["cml"], seed=3))
    protocol.nights[0].kill = None
    reason = best_move_right(protocol, PRESETS["cml"])[1]
    assert reason == "000 8.3 / 002 I.7.8: only the player killed on Night 1 makes a best move"
    with translation.override("ru"):
        assert localize(reason) == "000 8.3 / 002 I.7.8: лучший ход делает только игрок, убитый в первую ночь"


# ---------------------------------------------------------------------------------------------------- site


@pytest.fixture
def judge_game(db):
    cast = make_cast()
    seat_everyone(cast.game, cast.players, ROLES)
    Seat.objects.filter(game=cast.game, number=3).update(fouls=4)  # a 4th foul without its removal
    # The judge's screen lists the engine's checks once the game is over (during play the screen itself leads).
    Game.objects.filter(pk=cast.game.pk).update(status=Game.Status.FINISHED)
    return cast


def _screen(client, cast, language=None):
    client.force_login(cast.judge)
    if language:
        client.cookies["django_language"] = language
    return client.get(reverse("games:judge", args=[cast.game.pk])).content.decode()


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.find("<main"):]))[:2000]


def test_the_judge_screen_shows_engine_problems_in_russian_by_default(client, judge_game):
    page = _screen(client, judge_game)
    # The rule code goes behind a tap after the message (games.templatetags.live_tags.clause_last).
    assert ('4-й фол удаляет игрока; запишите удаление — место 3 <details class="clause"><summary>правило</summary>'
            '002 II.2.1</details>') in page, _text(page)
    assert "the 4th foul removes the player" not in page


def test_the_judge_screen_shows_engine_problems_in_english_when_switched(client, judge_game):
    page = _screen(client, judge_game, "en")
    assert ('the 4th foul removes the player; record the removal — seat 3 <details class="clause"><summary>rule</summary>'
            '002 II.2.1</details>') in page, _text(page)
    assert "4-й фол удаляет игрока" not in page


@pytest.fixture
def club_admin(django_user_model):
    club = Club.objects.create(name="Полночь")
    user = django_user_model.objects.create_user("boss", password="pw-123456-x")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    return user


def _bad_upload(client, language=None):
    bad = copy.deepcopy(document(ex1_game()))
    bad["games"][0]["result"] = "black"
    if language:
        client.cookies["django_language"] = language
    content = json.dumps(bad, ensure_ascii=False).encode()
    return client.post(reverse("games:import"), {"files": [SimpleUploadedFile("bad.json", content)]})


def test_the_import_page_lists_problems_in_russian_by_default(client, club_admin):
    client.force_login(club_admin)
    page = _bad_upload(client).content.decode()
    assert "bad.json: game 1: result: " in page  # the location in the file stays as it is
    assert "а не «победа чёрных»" in page


def test_the_import_page_lists_problems_in_english_when_switched(client, club_admin):
    client.force_login(club_admin)
    page = _bad_upload(client, "en").content.decode()
    assert "bad.json: game 1: result: " in page
    assert "not black" in page


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_engines_numbers_use_the_readers_one_decimal_separator(language):
    from django.utils import translation

    from games.i18n import number_text, problem_text
    from games.rules.i18n import N_
    from games.rules.problems import error_t

    problem = error_t("judge_extras[0]", N_("%(clause)s: %(points)s is outside %(low)s–%(high)s"), clause="x",
                      points="0.8", low="0.1", high="0.7")
    with translation.override(language):
        text = problem_text(problem)
        assert ("0,8" in text and "0.8" not in text) if language == "ru" else ("0.8" in text and "0,8" not in text)
        assert number_text("0.2, 0.3") == ("0,2; 0,3" if language == "ru" else "0.2, 0.3")
        assert number_text("002 III.14") == "002 III.14" and number_text("4.4.14") == "4.4.14"
