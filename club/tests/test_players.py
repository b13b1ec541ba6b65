"""Nickname rules: unique in a club ignoring case and spacing, not empty, at most 40 characters."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.urls import reverse

from club import services
from club.forms import PlayerForm
from club.models import Player, nickname_key
from club.tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def _form(club, nickname, **extra):
    return PlayerForm(data={"nickname": nickname, "joined": "2025-01-01", "active": "on", **extra}, club=club)


@pytest.mark.parametrize(
    "raw, key",
    [("Лиса", "лиса"), ("  ЛИСА  ", "лиса"), ("Старый   Лис", "старый лис"), ("Straße", "strasse")],
)
def test_nickname_key_ignores_case_and_spacing(raw, key):
    assert nickname_key(raw) == key


@pytest.mark.parametrize("duplicate", ["Лиса", "лиса", "  ЛИСА ", "лИсА"])
def test_duplicate_nickname_is_a_form_error_on_the_nickname(duplicate):
    club = ClubFactory()
    PlayerFactory(club=club, nickname="Лиса")
    form = _form(club, duplicate)
    assert not form.is_valid()
    assert "nickname" in form.errors
    assert "уже есть" in " ".join(form.errors["nickname"])  # Russian, the default language
    assert Player.objects.filter(club=club).count() == 1


def test_the_same_nickname_is_fine_in_another_club():
    PlayerFactory(nickname="Лиса")
    other = ClubFactory()
    form = _form(other, "Лиса")
    assert form.is_valid(), form.errors


@pytest.mark.parametrize("empty", ["", "   ", "\t"])
def test_empty_nickname_is_a_form_error(empty):
    club = ClubFactory()
    form = _form(club, empty)
    assert not form.is_valid()
    assert "nickname" in form.errors
    assert not Player.objects.exists()


def test_200_character_nickname_is_a_form_error_naming_the_limit():
    club = ClubFactory()
    form = _form(club, "М" * 200)
    assert not form.is_valid()
    assert "nickname" in form.errors
    assert "40" in " ".join(form.errors["nickname"])
    assert not Player.objects.exists()


def test_the_service_refuses_a_duplicate_and_saves_nothing(cast):
    with pytest.raises(services.ServiceError) as refused:
        services.player_create(club=cast.club, by=cast.club_admin, nickname=" лиса ")
    assert refused.value.field == "nickname"
    assert Player.objects.filter(club=cast.club).count() == 1


@pytest.mark.parametrize("nickname", ["", "   ", "Я" * 41])
def test_the_service_refuses_a_bad_nickname(cast, nickname):
    with pytest.raises(services.ServiceError):
        services.player_create(club=cast.club, by=cast.club_admin, nickname=nickname)
    assert Player.objects.filter(club=cast.club).count() == 1


def test_the_database_itself_refuses_a_duplicate_key():
    club = ClubFactory()
    PlayerFactory(club=club, nickname="Лиса")
    with pytest.raises(IntegrityError):
        Player.objects.create(club=club, nickname="ЛИСА")


def test_the_database_refuses_an_empty_nickname():
    with pytest.raises(IntegrityError):
        Player.objects.create(club=ClubFactory(), nickname="  ")


def test_a_nickname_is_stored_trimmed_and_with_single_spaces(cast):
    player = services.player_create(club=cast.club, by=cast.club_admin, nickname="  Старый   Лис ")
    assert player.nickname == "Старый Лис"
    assert player.nickname_key == "старый лис"


def test_renaming_to_an_existing_nickname_is_refused(cast):
    crow = services.player_create(club=cast.club, by=cast.club_admin, nickname="Ворон")
    with pytest.raises(services.ServiceError):
        services.player_update(player=crow, by=cast.club_admin, nickname="ЛИСА")
    crow.refresh_from_db()
    assert crow.nickname == "Ворон"
    # Changing only the case of one's own nickname is allowed.
    services.player_update(player=crow, by=cast.club_admin, nickname="ВОРОН")
    crow.refresh_from_db()
    assert crow.nickname == "ВОРОН"


@pytest.mark.parametrize("member", ["judge", "head_judge", "player", "outsider", "other_judge"])
def test_only_a_club_admin_creates_players(cast, member):
    with pytest.raises(PermissionDenied):
        services.player_create(club=cast.club, by=cast[member], nickname="Новичок")
    assert not Player.objects.filter(nickname="Новичок").exists()


def test_the_create_page_shows_the_errors_and_saves_nothing(cast, client):
    client.force_login(cast.club_admin)
    url = reverse("player_create")
    for nickname in ["лиса", "", "Ж" * 200]:
        response = client.post(url, {"nickname": nickname, "joined": "2025-01-01"})
        assert response.status_code == 400
        assert response.context["form"].errors["nickname"]
        assert 'id="error_1_id_nickname"' in response.content.decode()
    assert Player.objects.filter(club=cast.club).count() == 1


def test_the_create_page_adds_a_player(cast, client):
    client.force_login(cast.club_admin)
    response = client.post(
        reverse("player_create"), {"nickname": "Новичок", "real_name": "Пётр", "joined": "2025-01-01", "active": "on"}
    )
    player = Player.objects.get(nickname="Новичок")
    assert response.status_code == 302 and response["Location"] == reverse("player_detail", args=[player.pk])
    assert player.club == cast.club and player.real_name == "Пётр" and player.active
    assert player.history.first().history_user == cast.club_admin


def test_the_edit_page_changes_a_player(cast, client):
    client.force_login(cast.club_admin)
    player = Player.objects.get(nickname="Лиса")
    response = client.post(
        reverse("player_edit", args=[player.pk]), {"nickname": "Лисичка", "city": "Тверь", "joined": "2025-02-01"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.nickname, player.city, player.active) == ("Лисичка", "Тверь", False)


@pytest.mark.parametrize("member", ["judge", "player", "outsider"])
def test_non_admins_cannot_open_the_player_forms(cast, client, member):
    client.force_login(cast[member])
    player = Player.objects.get(nickname="Лиса")
    assert client.get(reverse("player_create")).status_code == 403
    assert (
        client.post(reverse("player_edit", args=[player.pk]), {"nickname": "X", "joined": "2025-01-01"}).status_code
        == 403
    )
    player.refresh_from_db()
    assert player.nickname == "Лиса"
