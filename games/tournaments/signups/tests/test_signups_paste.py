"""The organiser pastes several nicknames at once onto the sign-up list: checked first (known, new, a likely
typo), then added in one step — places, then the waiting list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from club.tests.factories import PlayerFactory
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups.models import Signup

pytestmark = pytest.mark.django_db
CONFIRMED, WAITING = Signup.Status.CONFIRMED, Signup.Status.WAITING


def _paste(client, cast, text, action="add", **extra):
    return client.post(reverse("games:signup_paste", args=[cast.sheet.pk]),
                       {"players": text, "action": action, **extra}, HTTP_ACCEPT_LANGUAGE="ru", follow=True)


def _state(cast):
    return (sorted(Signup.objects.filter(sheet=cast.sheet).values_list("player__nickname", "status")),
            Player.objects.filter(club=cast.club).count())


def test_seventeen_pasted_at_once_land_on_the_list(client):
    cast = build_cast(limit=None, players=2)
    known = [PlayerFactory(club=cast.club, nickname=f"Знакомый{index:02d}").nickname for index in range(15)]
    client.force_login(cast.admin)
    text = "\n".join([name.upper() for name in known] + ["", "Пришёл Сам", "Гость с улицы"])
    preview = _paste(client, cast, text, action="preview")
    assert preview.status_code == 200
    assert [row.status for row in preview.context["preview"]].count("new") == 2
    assert not Signup.objects.filter(sheet=cast.sheet).exists()  # the check writes nothing
    response = _paste(client, cast, text)
    assert "Игроков добавлено в список: 17" in response.content.decode()
    on_list = Signup.objects.filter(sheet=cast.sheet, status=CONFIRMED)
    assert on_list.count() == 17
    assert set(on_list.values_list("player__nickname", flat=True)) >= {"Знакомый00", "Пришёл Сам", "Гость с улицы"}
    assert Player.objects.filter(club=cast.club, nickname="Пришёл Сам").count() == 1
    again = _paste(client, cast, "Знакомый00\nЗнакомый01")  # already on the list: skipped, nothing doubled
    assert again.status_code == 200 and Signup.objects.filter(sheet=cast.sheet).count() == 17


def test_places_then_the_waiting_list(client):
    cast = build_cast(limit=3, players=2)
    client.force_login(cast.admin)
    _paste(client, cast, "Альфа\nБета\nГамма\nДельта\nЭпсилон")
    statuses = dict(Signup.objects.filter(sheet=cast.sheet).values_list("player__nickname", "status"))
    assert statuses == {"Альфа": CONFIRMED, "Бета": CONFIRMED, "Гамма": CONFIRMED, "Дельта": WAITING,
                        "Эпсилон": WAITING}


def test_a_similar_name_is_held_until_the_organiser_says_it_is_new(client):
    cast = build_cast(limit=None, players=2)
    PlayerFactory(club=cast.club, nickname="Маргарита")
    client.force_login(cast.admin)
    before = Player.objects.filter(club=cast.club).count()
    preview = _paste(client, cast, "Маргарита\nМаргорита", action="preview").content.decode()
    assert 'name="new_line" value="2"' in preview
    response = _paste(client, cast, "Маргарита\nМаргорита").content.decode()
    assert "Строка 2" in response and "Маргорита" in response
    assert list(Signup.objects.filter(sheet=cast.sheet).values_list("player__nickname", flat=True)) == ["Маргарита"]
    assert Player.objects.filter(club=cast.club).count() == before
    _paste(client, cast, "Маргорита", new_line="1")
    assert Signup.objects.filter(sheet=cast.sheet, player__nickname="Маргорита").exists()


def test_a_nickname_too_long_names_its_line_and_nothing_is_added(client):
    cast = build_cast(limit=None, players=2)
    client.force_login(cast.admin)
    before = _state(cast)
    response = _paste(client, cast, "Альфа\n" + "Я" * 80)
    assert response.status_code == 400
    assert "строка 2" in response.content.decode()
    assert _state(cast) == before


@pytest.mark.parametrize("who", ["judge", "outsider", "player"])
def test_only_the_organiser_may_paste(client, who):
    cast = build_cast(limit=None, players=2)
    user = {"judge": cast.judge, "outsider": cast.outsider, "player": cast.users[0]}[who]
    client.force_login(user)
    before = _state(cast)
    for action in ("preview", "add"):
        response = client.post(reverse("games:signup_paste", args=[cast.sheet.pk]),
                               {"players": "Альфа\nБета", "action": action})
        assert response.status_code == 403
    assert _state(cast) == before


def test_the_sheet_page_offers_the_paste_to_the_organiser_only(client):
    cast = build_cast(limit=None, players=2)
    client.force_login(cast.admin)
    assert 'data-testid="signup-paste-short"' in client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])
                                                             ).content.decode()
    client.force_login(cast.users[0])
    assert 'data-testid="signup-paste-short"' not in client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])
                                                                 ).content.decode()


def test_a_pasted_nick_with_a_club_puts_that_clubs_member_on_the_list_and_an_unknown_one_as_a_guest(client):
    from club.models import ClubMember
    from club.tests.factories import ClubFactory
    cast = build_cast(limit=None, players=2)
    visitor = PlayerFactory(club=ClubFactory(name="Рассвет"), nickname="Гастролёр")
    client.force_login(cast.admin)
    text = "Гастролёр (Рассвет)\nНезнакомец (Северный клуб)"
    preview = _paste(client, cast, text, action="preview").content.decode()
    assert "игрок клуба «Рассвет»" in preview and "новый гость без клуба" in preview
    before = Player.objects.count()
    _paste(client, cast, text)
    on_list = set(Signup.objects.filter(sheet=cast.sheet).values_list("player_id", flat=True))
    guest = Player.objects.get(nickname="Незнакомец")
    assert on_list == {visitor.pk, guest.pk} and Player.objects.count() == before + 1  # no copy of the visitor
    assert guest.club is None and not ClubMember.objects.filter(player=guest).exists()
