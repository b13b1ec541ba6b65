"""One lock order on a real PostgreSQL (games.protocol.services.scoring.lock_scoring_scope): a writer that rescores locks
the scope (the tournament) before the games. An import re-writing a tournament and the judge's action that
scores one of its games, at the same moment, then wait for each other instead of deadlocking; and the import,
which reads the games only once it holds them, sees the judge's tap and refuses (the tap is kept: an import never
reverts a judge's later entry, games/protocol/services/import_guard.py).

The moment is forced: the judge's transaction holds its locks until the import holds what it takes first (or a
second has passed: with one lock order the import cannot get there), then both go on.
"""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from club.models import Membership, nickname_key
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.live import apply as live_apply_module
from games.live.apply import live_apply
from games.models import Game, GameAction, RuleSetVersion, ScoreItem, Seat, Tournament
from games.protocol.services import imports
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.rules.interchange import protocol_to_dict
from games.tests.live_fixtures import NICKS
from games.tests.rules_builders import ex1, ex18

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 1.0  # seconds the judge's transaction waits, holding its locks, for the import to take its first lock


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks and deadlock detection): run with DATABASE_URL=postgres://…")


def _scores(tournament) -> tuple:
    cache.clear()
    seats = list(Seat.objects.filter(game__tournament=tournament).order_by("game_id", "number").values_list(
        "game_id", "number", "main", "extras", "total", "won"))
    items = sorted(ScoreItem.objects.filter(seat__game__tournament=tournament).values_list(
        "seat__game_id", "seat__number", "kind", "points", "effective"))
    return seats, items


def _fresh_scores(tournament) -> tuple:
    with transaction.atomic():
        score_games(tournament=tournament)
        fresh = _scores(tournament)
        transaction.set_rollback(True)
    return fresh


def test_an_import_racing_a_judges_result_neither_deadlocks_nor_reverts_the_tap(monkeypatch):
    club = ClubFactory(name="Полночь")
    players = [PlayerFactory(club=club, nickname=n) for n in NICKS[:10]]
    judge = MembershipFactory(club=club, user=UserFactory(username="judge"), role=Membership.Role.JUDGE).user
    ruleset = RuleSetVersion.objects.filter(slug="cml", club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset)
    names = dict(enumerate(NICKS[:10], start=1))
    by_key = {nickname_key(p.nickname): p for p in players}
    # Game 1: the judge is about to confirm the result; game 2: finished.
    game = Game(club=club, tournament=tournament, ruleset=ruleset, number=1, table=1, date="2026-11-28",
                judge=judge, judge_name="judge", status=Game.Status.IN_PROGRESS, phase="D3")
    write_protocol(game=game, protocol=dataclasses.replace(ex1(players=names), result=None), players=by_key,
                   fresh=True)
    other = Game(club=club, tournament=tournament, ruleset=ruleset, number=2, table=2, date="2026-11-28",
                 status=Game.Status.FINISHED)
    write_protocol(game=other, protocol=ex18(players=names), players=by_key, fresh=True)
    score_games(tournament=tournament)
    version = Game.objects.get(pk=game.pk).version
    # The import re-writes both games (game 1 as finished with a red win, as the paper protocol has it), from a
    # file made before the judge's tap (it carries the versions of that moment).
    document = {"format": "mafclub/1", "tournament": {"name": "Кубок", "ruleset": "cml"},
                "games": [{**protocol_to_dict(dataclasses.replace(ex1(players=names), number=1)), "table": 1,
                           "date": "2026-11-28", "version": version},
                          {**protocol_to_dict(dataclasses.replace(ex18(players=names), number=2)), "table": 2,
                           "date": "2026-11-28", "version": Game.objects.get(pk=other.pk).version}]}
    raw = json.dumps(document, ensure_ascii=False)
    other_before = Game.objects.get(pk=other.pk).version

    judge_holds, import_holds = threading.Event(), threading.Event()
    real_score_games, real_upsert = live_apply_module.score_games, imports._upsert_tournament

    def score_after_the_import_started(**kwargs):
        judge_holds.set()  # the judge's transaction holds the game (and, with one lock order, the tournament)
        import_holds.wait(HOLD)
        return real_score_games(**kwargs)

    def upsert_and_tell(*args):
        tournament = real_upsert(*args)
        import_holds.set()  # the import holds the tournament row and goes on to write the games
        return tournament

    monkeypatch.setattr(live_apply_module, "score_games", score_after_the_import_started)
    monkeypatch.setattr(imports, "_upsert_tournament", upsert_and_tell)
    outcome: dict[str, object] = {}

    def judge_confirms():
        try:
            live_apply(game_id=game.pk, by=judge, kind="result", payload={"result": "red"}, version=version,
                       action_id="result-1")
            outcome["judge"] = "ok"
        except Exception as exc:  # noqa: BLE001 — the test reports what went wrong
            outcome["judge"] = f"{exc!r} {exc.__cause__!r}"
        finally:
            judge_holds.set()
            connection.close()

    def import_runs():
        try:
            judge_holds.wait(10)
            imports.import_documents(documents=[("cup.json", raw)], club_name="Полночь")
            outcome["import"] = "ok"
        except imports.ImportFailed as exc:
            outcome["import"] = "refused"
            outcome["problems"] = exc.problems
        except Exception as exc:  # noqa: BLE001
            outcome["import"] = f"{exc!r} {getattr(exc, 'problems', '')}"
        finally:
            connection.close()

    threads = [threading.Thread(target=judge_confirms), threading.Thread(target=import_runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    problems = outcome.pop("problems", [])
    assert outcome == {"judge": "ok", "import": "refused"}
    # Refused for the judge's later entry, not for a deadlock or a busy database: the lock order held.
    assert [p for p in problems if "game 1: version:" in p and "table 1, Кубок" in p], problems
    assert not [p for p in problems if "busy" in p or "deadlock" in p], problems
    game.refresh_from_db()
    # The judge's result committed first and stays; the import wrote nothing (one transaction).
    assert GameAction.objects.filter(game=game, kind="result").count() == 1
    assert game.status == Game.Status.FINISHED and game.result == "red"
    assert game.version == version + 1
    assert Game.objects.get(pk=other.pk).version == other_before
    assert _scores(tournament) == _fresh_scores(tournament)
    assert Seat.objects.filter(game=game, won=True).count() == 7


def test_a_scoring_holding_its_tournament_does_not_block_a_new_game_of_that_tournament():
    """The scope lock is FOR NO KEY UPDATE: a game inserted into the tournament (its foreign key takes only a KEY
    SHARE lock) goes on while a scoring holds the tournament; a second scoring of it still waits."""
    from games.protocol.services.scoring import lock_scoring_scope

    club = ClubFactory(name="Полночь")
    ruleset = RuleSetVersion.objects.filter(slug="cml", club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset)
    held, release = threading.Event(), threading.Event()

    def scoring():
        try:
            with transaction.atomic():
                lock_scoring_scope(tournament_id=tournament.pk, club_id=None)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=scoring)
    thread.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            Game.objects.create(club=club, tournament=tournament, ruleset=ruleset, number=1, date="2026-11-28")
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '300ms'")
            with pytest.raises(Exception, match="lock timeout"):
                lock_scoring_scope(tournament_id=tournament.pk, club_id=None)
    finally:
        release.set()
        thread.join()
    assert Game.objects.filter(tournament=tournament).count() == 1
