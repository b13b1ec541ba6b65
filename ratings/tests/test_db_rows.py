"""club.bulk.insert_rows: the set-based writes store exactly what bulk_create stores, and values read through the
ORM and written back come out the same, on either database and both ways of club.bulk's switch (the `bulk_writes`
fixture)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from club.bulk import insert_rows
from club.tests.factories import ClubFactory, PlayerFactory
from games.models import Game, RuleSetVersion
from ratings.models import PlayerGame
from ratings.standings.facts import fact_fields
from ratings.statistics.registry import FACT_KEYS

FIELDS = fact_fields()  # every stored fact, the registry's included (ratings.statistics.registry)
COMPARED = [f for f in FIELDS if f != "game_id"]


def _values(game) -> list[tuple]:
    return list(PlayerGame.objects.filter(game=game).order_by("seat").values_list(*COMPARED))


@pytest.fixture
def games():
    club = ClubFactory()
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True)
    players = [PlayerFactory(club=club) for _ in range(3)]
    made = [Game.objects.create(club=club, ruleset=ruleset, number=n, date=dt.date(2026, 3, 1)) for n in (1, 2, 3)]
    defaults = {key: PlayerGame._meta.get_field(key).get_default() for key in FACT_KEYS}  # a fact added later
    rows = [dict(defaults, player_id=p.pk, club_id=club.pk, tournament_id=None, date=dt.date(2026, 3, 1), seat=i + 1,
                 role="Ш" if i == 0 else "", won=i == 1, main=Decimal("1"), extras=Decimal("0.3") * i,
                 total=Decimal("1") + Decimal("0.3") * i, tiebreak_extras=Decimal("-0.25") * i, difficult=i == 2,
                 fouls=i, first_night_death=i == 0, best_move_blacks=None if i else 2, sheriff_black_finds=i,
                 don_sheriff_finds=0) for i, p in enumerate(players)]
    return made, rows


@pytest.mark.django_db
@pytest.mark.usefixtures("bulk_writes")
def test_insert_rows_stores_what_bulk_create_stores(games):
    (first, second, _), rows = games
    PlayerGame.objects.bulk_create([PlayerGame(game_id=first.pk, **r) for r in rows])
    inserted = insert_rows(PlayerGame, FIELDS, ([second.pk, *(r[f] for f in COMPARED)] for r in rows), batch=2)
    assert inserted == 3  # two batches
    assert _values(second) == _values(first)
    assert _values(second)[1][COMPARED.index("total")] == Decimal("1.3")


@pytest.mark.django_db
@pytest.mark.usefixtures("bulk_writes")
def test_rows_read_and_written_back_are_the_same_through_the_orm(games):
    (first, _, third), rows = games
    PlayerGame.objects.bulk_create([PlayerGame(game_id=first.pk, **r) for r in rows])
    read = list(PlayerGame.objects.filter(game=first).order_by("seat").values_list(*COMPARED))
    assert len(read) == 3
    insert_rows(PlayerGame, FIELDS, ([third.pk, *row] for row in read))
    assert _values(third) == _values(first)


@pytest.mark.django_db


@pytest.mark.django_db
def test_the_players_games_index_covers_what_the_card_reads_on_either_database(games):
    from django.db import connection
    from django.db.models import Count, Q

    (first, _, _), rows = games
    PlayerGame.objects.bulk_create([PlayerGame(game_id=first.pk, **r) for r in rows])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'playergame_player_cover'")
            assert "(player_id, date, game_id, club_id, tournament_id, seat, role, won)" in cursor.fetchone()[0]
            return
        # the card's count of his seats over a season (ratings.card.selectors._seats)
        query = (PlayerGame.objects.filter(player_id=rows[0]["player_id"], club_id=first.club_id,
                                           date__range=(dt.date(2026, 1, 1), dt.date(2026, 12, 31)))
                 .values("seat").order_by().annotate(games=Count("seat"), wins=Count("seat", filter=Q(won=True))))
        sql, params = query.query.sql_with_params()
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "COVERING INDEX playergame_player_cover" in plan, plan
