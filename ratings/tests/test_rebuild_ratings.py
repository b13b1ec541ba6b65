"""`manage.py rebuild_ratings` (ratings.standings.rebuild): it restores every stored value from the protocols, and a
write of the site between its parts (a game annulled and rescored, as a protest decision or the judge's screen
does it) is neither lost nor counted twice: the result is what a rebuild from nothing gives for the games as they
end up."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from games.models import Game
from games.protocol.services.scoring import score_games
from ratings.models import EloRating, PlayerGame, PlayerStats, RatingPoint
from ratings.standings import services
from ratings.standings.facts import fact_fields
from ratings.standings.rebuild import rebuild
from ratings.statistics.registry import STAT_FIELDS

from .conftest import generated, make_tournament

POOL = [f"p{i}" for i in range(14)]


def stored() -> dict:
    """Every derived value, keyed without database ids (those of rebuilt rows change)."""
    return {
        "facts": sorted(tuple(r) for r in PlayerGame.objects.values_list(*fact_fields())),
        "stats": sorted(tuple(r) for r in PlayerStats.objects.values_list(
            "scope_id", "player_id", "rank", "decided_by", *STAT_FIELDS)),
        "points": sorted(tuple(r) for r in RatingPoint.objects.values_list(
            "scope_id", "player_id", "seq", "n", "cumulative", "rank")),
        "elo": sorted(tuple(r) for r in EloRating.objects.values_list("player_id", "elo", "games")),
    }


def history(club) -> list[Game]:
    a = make_tournament(club, "Весна", start=dt.date(2026, 3, 1))
    b = make_tournament(club, "Лето", slug="xcraft", start=dt.date(2026, 6, 1))
    return (generated(a, 9, seed=11, start=dt.date(2026, 3, 1), pool=POOL)
            + generated(b, 6, seed=12, start=dt.date(2026, 6, 1), pool=POOL))


def annul_and_rescore(game: Game) -> None:
    """A write of the site: the game annulled and its scope rescored (the scoring takes the scope's lock)."""
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ANNULLED)
        score_games(game=Game.objects.get(pk=game.pk))


@pytest.mark.django_db
@pytest.mark.usefixtures("bulk_writes")  # club.bulk both ways: its SQL and the public ORM
def test_the_command_restores_what_drifted_and_reports(club):
    history(club)
    before = stored()
    # drift: a statistic's facts and table zeroed (as a migration adding it leaves them), a rank moved
    changed = PlayerGame.objects.filter(black_nominations__gt=0).values("game_id").distinct().count()
    PlayerGame.objects.update(black_nominations=0)
    PlayerStats.objects.update(black_nominations=0, wins=0, rank=99)
    assert stored() != before
    out, err = io.StringIO(), io.StringIO()
    call_command("rebuild_ratings", "--format", "json", stdout=out, stderr=err)
    assert stored() == before
    summary = json.loads(out.getvalue())
    assert summary == {"clubs": 1, "games": 15, "games_changed": changed, "players": len(POOL), "scopes": 3}
    assert 0 < changed < 15
    assert "games' facts: 2/2" in err.getvalue() and "tables and histories: 3/3" in err.getvalue()

    call_command("rebuild_ratings", "--club", club.name, stdout=out, stderr=err)  # nothing left to change
    assert stored() == before


@pytest.mark.django_db
def test_an_unknown_club_is_refused(club):
    history(club)
    before = stored()
    with pytest.raises(CommandError, match="--club: no club named 'Рассвет'"):
        call_command("rebuild_ratings", "--club", "Рассвет")
    assert stored() == before


@pytest.mark.django_db
@pytest.mark.parametrize("moment", [("facts", 1), ("scopes", 0), ("scopes", 2), ("elo", 0)])
def test_a_write_between_the_parts_is_neither_lost_nor_counted_twice(club, moment):
    games = history(club)
    PlayerGame.objects.update(black_nominations=0)  # something for the rebuild to do
    PlayerStats.objects.update(black_nominations=0)
    written = []

    def progress(name: str, done: int, total: int) -> None:
        if (name, done) == moment and not written:
            annul_and_rescore(games[4])  # in the first tournament, whose scope the scopes pass rebuilds first
            written.append(name)

    rebuild(progress=progress)
    assert written
    after = stored()
    assert not PlayerGame.objects.filter(game=games[4]).exists()
    services.recompute_all()  # the reference: everything rebuilt from nothing, for the games as they are now
    assert after == stored()
