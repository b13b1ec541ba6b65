"""The statistics page's summary (ratings.standings.selectors.season_summary), now one grouped read of an index, gives
what the three scans it replaced gave: the same rule sets' results, months, count and first and last day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Count, Max, Min
from django.db.models.functions import TruncMonth

from games.models import Game
from games.visibility import counting_games
from ratings.models import RatingScope
from ratings.standings.selectors import season_summary

from .conftest import generated, make_tournament
from .test_aggregates import POOL

pytestmark = pytest.mark.django_db


def scanned(scope: RatingScope) -> dict:
    """The summary as the page computed it before (three scans of the scope's games), the reference."""
    games = counting_games().filter(scope.games_q())
    by_ruleset: dict[str, dict] = {}
    for name, result, n in games.order_by().values_list("ruleset__name", "result").annotate(n=Count("id")):
        entry = by_ruleset.setdefault(name, {"ruleset": name, "games": 0, "red": 0, "black": 0, "draw": 0})
        entry["games"] += n
        entry[result] += n
    months = [{"month": row["m"].strftime("%Y-%m"), "start": row["m"], "games": row["n"]} for row in
              games.order_by().annotate(m=TruncMonth("date")).values("m").annotate(n=Count("id")).order_by("m")]
    first_last = games.aggregate(first=Min("date"), last=Max("date"))
    return {"rulesets": sorted(by_ruleset.values(), key=lambda e: -e["games"]), "months": months,
            "games": sum(e["games"] for e in by_ruleset.values()),
            "first": first_last["first"].isoformat() if first_last["first"] else None,
            "last": first_last["last"].isoformat() if first_last["last"] else None}


def test_the_summary_equals_the_three_scans_it_replaced(club):
    winter = make_tournament(club, "Зима", start=dt.date(2026, 1, 30))
    spring = make_tournament(club, "Весна", slug="xcraft", start=dt.date(2026, 3, 31))
    games = generated(winter, 9, seed=3, start=dt.date(2026, 1, 30), pool=POOL)  # 30, 31 January, 1 February
    games += generated(spring, 6, seed=5, start=dt.date(2026, 3, 31), pool=POOL)  # 31 March, 1 April
    Game.objects.filter(pk=games[0].pk).update(results_hidden=True)  # counts nowhere
    Game.objects.filter(pk=games[-1].pk).update(status=Game.Status.IN_PROGRESS)
    scope = RatingScope.objects.get(kind=RatingScope.Kind.SEASON, club=club)
    found = season_summary(scope)
    assert found == scanned(scope)
    assert found["games"] == 13 and len(found["rulesets"]) == 2 and [m["month"] for m in found["months"]] == [
        "2026-01", "2026-02", "2026-03", "2026-04"]
    empty = RatingScope(kind=RatingScope.Kind.TOURNAMENT, club=club, tournament=make_tournament(club, "Пусто"))
    assert season_summary(empty) == scanned(empty) == {"rulesets": [], "months": [], "games": 0, "first": None,
                                                       "last": None}
