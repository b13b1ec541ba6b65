"""Everyone on the list: the organiser puts any club player (with a login or without) or a new one typed by
nickname — a walk-in on the night — on the sign-up list, and «Составить столы» seats them all."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from club.tests.factories import PlayerFactory
from games.models import Seat
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup, SignupSheet

pytestmark = pytest.mark.django_db
CONFIRMED, WAITING = Signup.Status.CONFIRMED, Signup.Status.WAITING


def _add(client, cast, nickname, **extra):
    return client.post(reverse("games:signup_add", args=[cast.sheet.pk]), {"nickname": nickname, **extra},
                       HTTP_ACCEPT_LANGUAGE="ru", follow=True)


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_twenty_players_six_signed_themselves_fourteen_added_one_walk_in_two_tables(client):
    cast = build_cast(limit=None, players=6)
    for index in range(6):
        services.sign_up(sheet=cast.sheet, by=cast.users[index])
    without_login = [PlayerFactory(club=cast.club, nickname=f"Гость{index:02d}") for index in range(13)]
    client.force_login(cast.admin)
    page = client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert 'data-testid="signup-add"' in page and '<option value="Гость00">' in page
    for player in without_login:
        _add(client, cast, player.nickname.lower())  # case does not make another player
    response = _add(client, cast, "Пришёл Сам")  # the walk-in, created on the spot
    assert "Пришёл Сам" in _messages(response)
    walk_in = Player.objects.get(club=cast.club, nickname="Пришёл Сам")
    assert walk_in.user is None and walk_in.history.get().history_user == cast.admin
    assert cast.sheet.signups.filter(status=CONFIRMED).count() == 20
    lists = client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    confirmed = lists.split('data-testid="signup-confirmed"', 1)[1].split("</ol>", 1)[0]
    assert "Гость12" in confirmed and "Пришёл Сам" in confirmed and "Игрок00" in confirmed

    response = client.post(reverse("games:signup_convert", args=[cast.sheet.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:evening_detail", args=[cast.evening.pk])
    seated = set(Seat.objects.filter(game__evening=cast.evening).values_list("player_id", flat=True))
    assert cast.evening.games.count() == 2 and len(seated) == 20
    assert walk_in.pk in seated and {p.pk for p in without_login} <= seated


def test_a_nickname_like_a_known_one_is_refused_unless_marked_new(client):
    cast = build_cast(limit=None, players=2)
    client.force_login(cast.admin)
    response = _add(client, cast, "Игрок0")
    assert "не игрок клуба" in _messages(response) and "может быть, «Игрок0" in _messages(response)
    assert not Player.objects.filter(nickname="Игрок0").exists() and not cast.sheet.signups.exists()
    _add(client, cast, "Игрок0", new_player="on")
    assert cast.sheet.signups.get(player__nickname="Игрок0").status == CONFIRMED


def test_a_player_already_on_the_list_is_not_added_twice(client):
    cast = build_cast(limit=None, players=2)
    services.sign_up(sheet=cast.sheet, by=cast.users[0])
    client.force_login(cast.admin)
    response = _add(client, cast, "Игрок00")
    assert "уже в списке" in _messages(response) and cast.sheet.signups.count() == 1


def test_a_full_list_puts_the_added_player_on_the_waiting_list_unless_beyond_the_limit(client):
    cast = build_cast(limit=1, players=3)
    services.sign_up(sheet=cast.sheet, by=cast.users[0])
    client.force_login(cast.admin)
    _add(client, cast, "Игрок01")
    _add(client, cast, "Игрок02", over_limit="on")
    assert dict(cast.sheet.signups.values_list("player__nickname", "status")) == {
        "Игрок00": CONFIRMED, "Игрок01": WAITING, "Игрок02": CONFIRMED}


def test_after_the_tables_are_made_the_list_takes_nobody(client):
    cast = build_cast(limit=None, players=10)
    for index in range(10):
        services.sign_up(sheet=cast.sheet, by=cast.users[index])
    services.signups_to_tables(sheet=cast.sheet, by=cast.admin)
    client.force_login(cast.admin)
    response = _add(client, cast, "Опоздавший")
    assert "столы уже составлены" in _messages(response)
    assert not Player.objects.filter(nickname="Опоздавший").exists()


@pytest.mark.parametrize("who", ["judge", "outsider", "player", "anonymous"])
def test_only_the_organiser_adds_to_the_list(client, who):
    cast = build_cast(limit=None, players=2)
    user = {"judge": cast.judge, "outsider": cast.outsider, "player": cast.users[0], "anonymous": None}[who]
    if user is not None:
        client.force_login(user)
    response = client.post(reverse("games:signup_add", args=[cast.sheet.pk]), {"nickname": "Новенький"})
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    assert not cast.sheet.signups.exists() and not Player.objects.filter(nickname="Новенький").exists()
    page = client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert 'data-testid="signup-add"' not in page


def test_the_head_judge_organises_a_club_night_list_too(client):
    cast = build_cast(limit=None, players=1)
    client.force_login(cast.head_judge)
    _add(client, cast, "Игрок00")
    assert cast.sheet.signups.get().player.nickname == "Игрок00"


def test_a_tournaments_list_takes_players_without_a_login_into_its_participants(client):
    cast = build_cast(limit=None, players=1)
    sheet = SignupSheet.objects.create(club=cast.club, tournament=cast.tournament, starts_at=cast.sheet.starts_at,
                                       opens_at=cast.sheet.opens_at, closes_at=cast.sheet.closes_at)
    services.sign_up(sheet=sheet, by=cast.users[0])
    PlayerFactory(club=cast.club, nickname="Без логина")
    client.force_login(cast.admin)
    client.post(reverse("games:signup_add", args=[sheet.pk]), {"nickname": "без логина"})
    client.post(reverse("games:signup_convert", args=[sheet.pk]))
    assert list(cast.tournament.participants.order_by("number").values_list("player__nickname", flat=True)) == [
        "Игрок00", "Без логина"]
