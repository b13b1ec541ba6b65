"""The club's roster in one paste: the same preview as a tournament's participants (known / new / similar names),
then every new player created in one transaction."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player

pytestmark = pytest.mark.django_db
URL = "/players/paste/"


def _statuses(html: str) -> list[str]:
    return [chunk.split('"', 1)[0] for chunk in html.split('data-testid="preview-row" data-status="')[1:]]


def test_the_url_is_the_roster_paste():
    assert reverse("roster_paste") == URL


def test_the_preview_marks_players_in_the_club_new_ones_repeats_and_typos_and_writes_nothing(client, cast):
    client.force_login(cast.club_admin)
    text = "лиса\nВорон; Иван Воронов\n  ворон \nЛис\tЛеонид Лисов\n\nСова, Софья\n"
    response = client.post(URL, {"action": "preview", "players": text}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    html = response.content.decode()
    assert _statuses(html) == ["registered", "new", "duplicate", "new", "new"]
    assert "уже в клубе: пропущен" in html
    assert "опечатка? В клубе есть игрок «Лиса»" in html
    assert "Иван Воронов" in html and "Леонид Лисов" in html and "Софья" in html
    assert list(Player.objects.filter(club=cast.club).values_list("nickname", flat=True)) == ["Лиса"]


def test_twenty_players_in_one_paste_are_created_in_the_club_with_their_real_names(client, cast):
    client.force_login(cast.club_admin)
    lines = [f"Игрок {i:02d}; Имя Фамилия {i}" for i in range(1, 21)]
    response = client.post(URL, {"action": "add", "players": "\n".join(["Лиса", *lines])})
    assert response.status_code == 302 and response["Location"] == reverse("player_list")
    created = Player.objects.filter(club=cast.club, nickname__startswith="Игрок ").order_by("nickname")
    assert created.count() == 20
    assert created.first().real_name == "Имя Фамилия 1" and created.last().nickname == "Игрок 20"
    assert Player.objects.filter(club=cast.club, nickname_key="лиса").count() == 1  # left as it was
    assert not Player.objects.filter(club=cast.other_club).exists()
    # every new player has his history row, by the admin
    assert created.first().history.first().history_user == cast.club_admin


def test_a_line_too_long_refuses_the_whole_paste_naming_the_field_and_the_line(client, cast):
    client.force_login(cast.club_admin)
    response = client.post(URL, {"action": "add", "players": "Новичок\nСова; " + "Я" * 121},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "строка 2 слишком длинная" in response.content.decode()
    assert response.context["form"].errors["players"]
    assert Player.objects.filter(club=cast.club).count() == 1


def test_an_empty_paste_names_the_field(client, cast):
    client.force_login(cast.club_admin)
    response = client.post(URL, {"action": "add", "players": "  \n \n"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400 and "players" in response.context["form"].errors
    assert Player.objects.filter(club=cast.club).count() == 1


@pytest.mark.parametrize("who", ["anonymous", "player", "judge", "head_judge", "outsider", "other_judge"])
def test_only_the_clubs_admin_pastes_the_roster(client, cast, who):
    if who != "anonymous":
        client.force_login(cast[who])
    for action in ("preview", "add"):
        response = client.post(URL, {"action": action, "players": "Новичок"})
        assert response.status_code in (302, 403)
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login"))
    assert not Player.objects.filter(nickname="Новичок").exists()


def test_the_players_list_links_to_the_paste_for_the_admin_only(client, cast):
    client.force_login(cast.club_admin)
    assert URL in client.get(reverse("player_list")).content.decode()
    client.force_login(cast.player)
    assert URL not in client.get(reverse("player_list")).content.decode()
