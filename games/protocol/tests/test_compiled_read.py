"""club.reads.CompiledRead and the game page's reads built on it (games.protocol.selectors.prefetch_protocol,
read_game_page): the instances are those the ORM reads (every field, converted alike: decimals, JSON, times), with
their related rows cached, whatever game the compiled statement is run for, on either database."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.reads import CompiledRead
from games.models import Game, Seat
from games.protocol.selectors import prefetch_protocol, read_game_page, with_protocol
from games.tests.protest_fixtures import ex18_tournament

pytestmark = pytest.mark.django_db

RELATED = ("seats", "days", "nights", "removals", "colours", "judge_extras", "adjustments", "protests")


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def _as_read(game: Game) -> dict:
    """Every row of the game the page shows, field by field (with each seat's player and score items)."""
    seen = {name: [_fields(row) for row in getattr(game, name).all()] for name in RELATED}
    seen["players"] = [_fields(seat.player) for seat in game.seats.all()]
    seen["items"] = [[_fields(item) for item in seat.score_items.all()] for seat in game.seats.all()]
    return seen


@pytest.fixture(params=[True, False], ids=["compiled", "orm"])
def tournament(request, settings):
    """Ex 18's tournament, read with the compiled statements and with the switch off (settings.DB_COMPILED_READS)."""
    settings.DB_COMPILED_READS = request.param
    return ex18_tournament()


def test_the_game_page_reads_what_the_orm_reads_and_asks_nothing_more(tournament, django_assert_num_queries):
    for game in tournament.games.order_by("number"):
        orm = with_protocol(Game.objects.filter(pk=game.pk), scores=True).prefetch_related("protests").get()
        compiled = read_game_page(game.pk)
        assert _fields(compiled) == _fields(orm)
        for name in ("club", "tournament", "evening", "ruleset", "judge"):
            with django_assert_num_queries(0):
                related = getattr(compiled, name)
            assert (related and _fields(related)) == (getattr(orm, name) and _fields(getattr(orm, name)))
        prefetch_protocol(compiled, scores=True, protests=True)
        with django_assert_num_queries(0):
            seen = _as_read(compiled)
            assert all(seat.game is compiled for seat in compiled.seats.all())
        assert seen == _as_read(orm)
        assert any(seen["items"]) and (seen["adjustments"] or game.number != 1)  # Ex 18's −0.3 in game 1


def test_a_filter_on_rows_read_asks_the_database_as_after_a_prefetch(tournament):
    game = read_game_page(tournament.games.get(number=1).pk)
    prefetch_protocol(game, scores=True)
    assert [s.number for s in game.seats.filter(number__gt=8)] == [9, 10]
    assert list(game.removals.filter(seat=1)) == []  # read as empty, and still a real query when filtered


def test_one_compiled_statement_serves_every_value_and_refuses_a_foreign_parameter(tournament, settings):
    settings.DB_COMPILED_READS = True
    seats = CompiledRead(Seat, lambda *games: Seat.objects.filter(game_id__in=games).order_by("game_id", "number"),
                         related=("player",))
    games = list(tournament.games.order_by("number").values_list("pk", flat=True))
    for chosen in ([games[0]], [games[1]], games[:2], games[2:]):
        expected = list(Seat.objects.filter(game_id__in=chosen).order_by("game_id", "number")
                        .select_related("player"))
        with CaptureQueriesContext(connection) as queries:
            got = seats.instances(*chosen)
        assert len(queries) == 1
        assert [(_fields(s), _fields(s.player)) for s in got] == [(_fields(s), _fields(s.player)) for s in expected]
    assert {key[2] for key in seats._shapes} == {1, 2}  # one statement per number of values, compiled once
    assert read_game_page(max(games) + 1000) is None
    assert seats.instances() == []  # no values: no row, as the ORM answers an empty IN
    with pytest.raises(ValueError):  # a parameter of the query that is not one of the values
        CompiledRead(Seat, lambda game: Seat.objects.filter(game_id=game, number__lte=5)).instances(games[0])
