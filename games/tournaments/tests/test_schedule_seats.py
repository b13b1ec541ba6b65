"""Seats from the schedule are the organiser's; a game's date is the day it was played; "the same players as the
previous game at this table" stays within the club night or tournament and names that game as people do."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import ClubEvening, Game, Seat
from games.tests.live_fixtures import act, make_cast, seat_everyone
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


@pytest.fixture
def scheduled(db):
    """A tournament starting 5 December, 10 participants, one round drawn and published; table 1 is the cast's judge's."""
    cast = make_cast()
    cast.tournament.start_date, cast.tournament.end_date = dt.date(2026, 12, 5), dt.date(2026, 12, 6)
    cast.tournament.save()
    for player in cast.players[:10]:
        schedule.participant_add(tournament=cast.tournament, by=cast.club_admin, player=player)
    schedule.judge_set(tournament=cast.tournament, by=cast.club_admin, user=cast.judge, table=1)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=1)
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    cast.game = Game.objects.get(tournament=cast.tournament, round=1, table=1)
    return cast


def _seating(game):
    return sorted(Seat.objects.filter(game=game).values_list("number", "player_id"))


def test_a_scheduled_game_offers_no_redraw_and_the_server_refuses_one_in_russian(client, scheduled):
    game = scheduled.game
    before = _seating(game)
    assert len(before) == 10
    client.force_login(scheduled.judge)
    page = client.get(reverse("games:judge", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="draw"' not in page and 'data-testid="seats-from-schedule"' in page
    refused = act(client, game, "seats_draw")
    assert refused.status_code in (400, 409, 422)
    assert "только организатор" in refused.content.decode()
    assert _seating(game) == before


def test_a_club_night_game_still_offers_the_draw(client, db):
    cast = make_cast()
    evening = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 12, 1), ruleset=cast.game.ruleset)
    game = Game.objects.create(club=cast.club, evening=evening, ruleset=cast.game.ruleset, number=1, table=1,
                               date=evening.date, judge=cast.judge)
    seat_everyone(game, cast.players)
    client.force_login(cast.judge)
    assert 'data-testid="draw"' in client.get(reverse("games:judge", args=[game.pk])).content.decode()
    assert act(client, game, "seats_draw").status_code == 200


def test_a_game_is_dated_the_day_it_was_played_in_the_club_time_zone(client, scheduled):
    game = scheduled.game
    Seat.objects.filter(game=game, number=1).update(role="Ш")
    Seat.objects.filter(game=game, number=2).update(role="Д")
    Seat.objects.filter(game=game, number__in=[3, 4]).update(role="Ч")
    assert game.date == dt.date(2026, 12, 5)  # planned: the tournament's first day
    # 1 December, 22:30 UTC is already 2 December in Moscow (the club's zone)
    played = dt.datetime(2026, 12, 1, 22, 30, tzinfo=dt.UTC)
    client.force_login(scheduled.judge)
    with mock.patch("games.live.setup.timezone.now", return_value=played):
        assert act(client, game, "start").status_code == 200
    game.refresh_from_db()
    assert game.date == dt.date(2026, 12, 2)
    page = client.get(reverse("games:tournament_detail", args=[scheduled.tournament.pk]),
                      HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "02.12" in page and "05.12" not in page
    assert "С 5 декабря 2026 по 6 декабря 2026" in page  # the tournament's first and last day


def test_the_same_players_come_only_from_the_previous_game_of_this_club_night(client, db):
    cast = make_cast()
    ruleset = cast.game.ruleset
    monday = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 11, 30), ruleset=ruleset)
    tuesday = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 12, 1), ruleset=ruleset)
    old = Game.objects.create(club=cast.club, evening=monday, ruleset=ruleset, number=35, table=1,
                              date=monday.date, status=Game.Status.SIGNED, result="red")
    seat_everyone(old, cast.players)
    first = Game.objects.create(club=cast.club, evening=tuesday, ruleset=ruleset, number=1, table=1,
                                date=tuesday.date, judge=cast.judge)
    client.force_login(cast.judge)
    page = client.get(reverse("games:judge", args=[first.pk])).content.decode()
    assert 'data-testid="same-players"' not in page  # Monday's game is another evening's
    assert act(client, first, "seats_repeat").status_code == 422
    seat_everyone(first, cast.players[2:12])
    Game.objects.filter(pk=first.pk).update(status=Game.Status.SIGNED, result="black", started_at=timezone.now())
    second = Game.objects.create(club=cast.club, evening=tuesday, ruleset=ruleset, number=2, table=1,
                                 date=tuesday.date, judge=cast.judge)
    page = client.get(reverse("games:judge", args=[second.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="same-players"' in page
    assert "стол 1, игра 1" in page and "1 декабря 2026" in page and "игры 35" not in page
    assert act(client, second, "seats_repeat").status_code == 200
    assert set(Seat.objects.filter(game=second).values_list("player_id", flat=True)) == {
        p.pk for p in cast.players[2:12]}


def test_the_migration_dates_games_already_begun_by_their_start(db):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0009_organiser_game_date_played")
    cast = make_cast()
    Game.objects.filter(pk=cast.game.pk).update(date=dt.date(2026, 12, 5),
                                                started_at=dt.datetime(2026, 12, 1, 22, 30, tzinfo=dt.UTC))
    migration.date_from_start(apps, None)
    assert Game.objects.get(pk=cast.game.pk).date == dt.date(2026, 12, 2)
    assert Game.objects.get(number=2, tournament=cast.tournament).date == dt.date(2026, 11, 28)  # not begun


@pytest.mark.parametrize(("kind", "data"), [
    ("seat", {"seat": 1, "nickname": "Новичок", "create": "1"}),
    ("seat_clear", {"seat": 1}),
    ("seats_repeat", {}),
])
def test_the_judge_cannot_change_a_scheduled_games_seats(client, scheduled, kind, data):
    game = scheduled.game
    if kind == "seats_repeat":
        Seat.objects.filter(game=game).delete()  # the only state where "the same players" would apply
    before = _seating(game)
    client.force_login(scheduled.judge)
    refused = act(client, game, kind, **data)
    assert 400 <= refused.status_code < 500
    assert "только организатор" in refused.content.decode()
    assert _seating(game) == before


def test_a_scheduled_game_with_an_empty_seat_offers_no_seat_picker(client, scheduled):
    Seat.objects.filter(game=scheduled.game, number=4).delete()
    client.force_login(scheduled.judge)
    page = client.get(reverse("games:judge", args=[scheduled.game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="player-search"' not in page and 'data-testid="seats-from-schedule"' in page
    assert "занято 9 из 10. Свободные места заполняет только организатор" in page
