"""The judge's actions behind the phone screen: a tap names what it acts on, so a repeat is absorbed and never applied
to the next thing (games/live/targets.py); roles locked after the start with a logged correction; the same players as
the last game at the table; the judge shown by his name (Game.judge_display)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from games.models import Day, Game, GameAction, Night, Seat
from games.sheets.render import _header_of
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def started(live, client, roles=ROLES):
    seat_everyone(live.game, live.players, roles)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    return live.game


def stored_version(game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_a_repeated_speech_over_is_absorbed_and_never_ends_the_next_speech(live, client):
    game = started(live, client)
    first = act(client, game, "speech", day=1, seat=1)
    assert first.status_code == 200
    version = stored_version(game)
    again = act(client, game, "speech", day=1, seat=1)  # the twin tap, sent with the newer version
    assert again.status_code == 200 and "already over" in again.content.decode()
    assert stored_version(game) == version  # nothing written
    assert list(Day.objects.get(game=game).spoken) == [1]
    wrong = act(client, game, "speech", day=1, seat=5)
    assert wrong.status_code == 422 and "not speaking" in wrong.content.decode()
    assert act(client, game, "speech").status_code == 200  # a request naming nothing works as before
    assert list(Day.objects.get(game=game).spoken) == [1, 2]


def test_repeated_foul_vote_nightfall_check_morning_and_undo_taps_are_absorbed(live, client):
    game = started(live, client)
    assert act(client, game, "foul", seat=3, delta=1, **{"from": 0}).status_code == 200
    twin = act(client, game, "foul", seat=3, delta=1, **{"from": 0})
    assert twin.status_code == 200 and "already has 1" in twin.content.decode()
    assert Seat.objects.get(game=game, number=3).fouls == 1
    assert act(client, game, "foul", seat=3, delta=1, **{"from": 1}).status_code == 200  # a new tap: 2
    assert Seat.objects.get(game=game, number=3).fouls == 2

    act(client, game, "nominate", day=1, by=1, nominee=5)
    twin = act(client, game, "nominate", day=1, by=1, nominee=5)
    assert twin.status_code == 200 and "already nominated" in twin.content.decode()
    act(client, game, "nominate", day=1, by=2, nominee=4)
    for _ in range(10):
        act(client, game, "speech")
    assert act(client, game, "votes", round=0, v5=5).status_code == 200  # 5 : 5, a tie
    twin = act(client, game, "votes", round=0, v5=7)
    assert twin.status_code == 200 and "already recorded" in twin.content.decode()
    assert Day.objects.get(game=game).votes == [{"seat": 5, "votes": 5}, {"seat": 4, "votes": 5}]
    assert act(client, game, "votes", round=1, v5=7).status_code == 200  # the re-vote: 5 leaves
    assert act(client, game, "night", day=1).status_code == 200
    twin = act(client, game, "night", day=1)
    assert twin.status_code == 200 and Game.objects.get(pk=game.pk).phase == "N1"
    assert act(client, game, "kill", night=1, seat=1).status_code == 200
    assert act(client, game, "day", night=1).status_code == 200
    twin = act(client, game, "day", night=1)
    assert twin.status_code == 200 and Game.objects.get(pk=game.pk).phase == "D2"  # not D3
    late = act(client, game, "kill", night=1, seat=3)
    assert late.status_code == 422 and Night.objects.get(game=game, index=1).kill == 1

    last = GameAction.objects.filter(game=game, undone=False).order_by("-seq").first()
    assert act(client, game, "undo", seq=last.seq).status_code == 200
    twin = act(client, game, "undo", seq=last.seq)
    assert twin.status_code == 200 and "already undone" in twin.content.decode()
    assert GameAction.objects.filter(game=game, undone=True).count() == 1
    assert Game.objects.get(pk=game.pk).phase == "N1"


def test_roles_are_locked_after_the_start_and_a_correction_is_confirmed_and_logged(live, client):
    game = started(live, client)
    locked = act(client, game, "role", seat=3, role="Ч")
    assert locked.status_code == 422 and "Correct the role" in locked.content.decode()
    assert Seat.objects.get(game=game, number=3).role == "К"
    # The deal was 5 К and 3 Ч, entered the other way round: two corrections, the count is off in between.
    halfway = act(client, game, "role_correct", seat=5, role="К")
    assert halfway.status_code == 200 and "6 × C (this would make 7)" in halfway.content.decode()
    assert act(client, game, "role_correct", seat=3, role="Ч").status_code == 200
    assert dict(Seat.objects.filter(game=game, number__in=(3, 5)).values_list("number", "role")) == {3: "Ч", 5: "К"}
    logged = GameAction.objects.filter(game=game, kind="role_correct").order_by("seq")
    assert [(a.payload["seat"], a.payload["was"], a.payload["role"], a.by) for a in logged] == [
        ("5", "Ч", "К", live.judge), ("3", "К", "Ч", live.judge)]
    again = act(client, game, "role_correct", seat=3, role="Ч")
    assert again.status_code == 200 and logged.count() == 2  # a repeated tap changes nothing
    client.force_login(live.outsider)
    assert act(client, game, "role_correct", seat=4, role="Ч").status_code == 403


def test_the_rest_are_citizens_once_the_four_roles_are_placed(live, client):
    game = started(live, client, roles={7: "Ш", 2: "Д", 5: "Ч", 9: "Ч"})
    assert dict(Seat.objects.filter(game=game).values_list("number", "role")) == ROLES


def test_the_same_players_as_the_last_game_at_this_table_in_one_tap(live, client):
    client.force_login(live.judge)
    refused = act(client, live.game, "seats_repeat")
    assert refused.status_code == 422 and "No earlier game" in refused.content.decode()
    before = Game.objects.create(club=live.club, tournament=live.tournament, ruleset=live.game.ruleset, number=9,
                                 table=1, date=dt.date(2026, 11, 27), judge=live.judge, status=Game.Status.SIGNED,
                                 result="red")
    seat_everyone(before, live.players[2:12])
    page = client.get(reverse("games:judge", args=[live.game.pk])).content.decode()
    assert 'data-testid="same-players"' in page
    assert act(client, live.game, "seats_repeat").status_code == 200
    seated = set(Seat.objects.filter(game=live.game).values_list("player_id", flat=True))
    assert seated == {p.pk for p in live.players[2:12]}
    twin = act(client, live.game, "seats_repeat")
    assert twin.status_code == 200 and Seat.objects.filter(game=live.game).count() == 10


def test_the_judge_is_shown_by_his_name_his_login_only_when_he_has_none(live, client):
    live.players[0].user = live.judge
    live.players[0].save()
    live.game.refresh_from_db()
    assert live.game.judge_display == live.players[0].nickname
    assert _header_of(live.game).judge == live.players[0].nickname
    client.force_login(live.judge)
    page = client.get(reverse("games:judge", args=[live.game.pk])).content.decode()
    assert f"Judge: {live.players[0].nickname}" in page
    live.players[0].user = None
    live.players[0].save()
    live.game.refresh_from_db()
    assert live.game.judge_display == live.judge.get_username()  # a login-only account: a sheet names its judge
    live.judge.first_name, live.judge.last_name = "Иван", "Петров"
    live.judge.save()
    live.game.refresh_from_db()
    assert live.game.judge_display == "Иван Петров"


def test_the_screen_shows_no_version_and_puts_the_rule_code_after_the_message(live, client):
    game = started(live, client)
    for _ in range(3):
        act(client, game, "foul", seat=2, delta=1)
    body = act(client, game, "foul", seat=2, delta=1).content.decode()
    assert 'class="clause' in body and "removes seat 2" in body
    text = body[body.index('data-testid="live-message"'):]
    assert text.index("removes seat 2") < text.index("002 II.2.1")
    page = client.get(reverse("games:judge", args=[game.pk])).content.decode()
    assert f">v{stored_version(game)}<" not in page


def test_no_nomination_buttons_on_a_day_whose_vote_a_removal_cancelled(live, client):
    game = started(live, client)
    for _ in range(4):
        act(client, game, "foul", seat=9, delta=1)  # removed on Day 1 before the vote: no vote today (002 I.8.1)
    page = client.get(reverse("games:judge", args=[game.pk])).content.decode()
    assert 'data-testid="no-vote-today"' in page and 'data-testid="nominee-3"' not in page
