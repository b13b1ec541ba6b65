"""The history upload page: who is who before anything is saved, the ambiguous names settled, then the import."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from club.models import Club, ClubMember, Membership, Player
from games.histories.models import PendingHistoryImport
from games.histories.tests import mr_games
from games.models import Game, Tournament


@pytest.fixture
def admin(db, client):
    club = Club.objects.create(name="Vancouver")
    user = get_user_model().objects.create_user("boss", password="x-boss-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    client.force_login(user)
    return club


def _upload(client, data, **extra):
    upload = SimpleUploadedFile("mr.json", json.dumps(data).encode(), content_type="application/json")
    return client.post(reverse("games:history_import"), {"format": "mafiaratings", "files": upload, **extra})


def test_matching_is_shown_and_nothing_written_until_confirmed(admin, client, english):
    Player.objects.create(club=admin, nickname="bravo")
    for name in ("Charlie", "charlie "):  # two players whose nicknames differ only in case and space: ambiguous
        get_user_model().objects.create_user(name.strip() + "x", email="charlie@example.org")
    users = get_user_model().objects.filter(email="charlie@example.org")
    c1, c2 = (Player.objects.create(club=admin, nickname=f"Чарли {i}", user=u) for i, u in enumerate(users))
    raw = mr_games.full_game()
    raw["players"][2]["email"] = "charlie@example.org"
    response = _upload(client, [raw])
    assert response.status_code == 302
    pending = PendingHistoryImport.objects.get()
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and 'data-status="matched"' in body and 'data-status="new"' in body
    assert 'data-status="ambiguous"' in body and "Чарли 0" in body and "Чарли 1" in body
    assert not Game.objects.exists() and Player.objects.filter(club=admin).count() == 3

    refused = client.post(response["Location"], {})
    assert refused.status_code == 400 and "Choose who Charlie is" in refused.content.decode()
    assert not Game.objects.exists()

    token = next(line.split('name="')[1].split('"')[0] for line in body.splitlines() if 'type="radio"' in line)
    done = client.post(response["Location"], {token: str(c2.pk)})
    assert done.status_code == 302
    game = Game.objects.get()
    assert game.seats.get(number=3).player == c2 and game.seats.get(number=2).player.nickname == "bravo"
    assert not PendingHistoryImport.objects.filter(pk=pending.pk).exists()
    assert c1.seats.count() == 0


def test_a_broken_file_is_refused_on_upload(admin, client, english):
    raw = mr_games.full_game()
    raw["winner"] = "nobody"
    response = _upload(client, [raw])
    assert response.status_code == 400 and "games[0].winner: must be civ, maf or tie" in response.content.decode()
    assert not PendingHistoryImport.objects.exists()


def test_the_results_template_offers_the_club_players(admin, client, english):
    Player.objects.create(club=admin, nickname="Alpha")
    response = client.get(reverse("games:results_template"))
    book = load_workbook(io.BytesIO(response.content))
    assert response.status_code == 200 and book["players"]["A1"].value == "Alpha"
    assert book["results"]["F1"].value == "nickname"
    # the club's players are its members (club.selectors.member_players): a member from another home club too
    visitor = Player.objects.create(club=Club.objects.create(name="Seattle"), nickname="Bravo")
    Player.objects.create(club=Club.objects.get(name="Seattle"), nickname="Charlie")
    ClubMember.objects.create(player=visitor, club=admin)
    for name in ("results_template", "protocol_template"):
        book = load_workbook(io.BytesIO(client.get(reverse(f"games:{name}")).content))
        assert [c.value for c in book["players"]["A"]] == ["Alpha", "Bravo"]


def test_namesakes_of_other_clubs_are_chosen_by_club_and_city(admin, client, english):
    seattle = Player.objects.create(club=Club.objects.create(name="Seattle", city="Seattle WA"), nickname="Golf")
    Player.objects.create(club=Club.objects.create(name="Rose"), nickname="Golf", city="Portland")
    response = _upload(client, [mr_games.full_game()])
    body = client.get(response["Location"]).content.decode()
    assert f"Golf (#{seattle.pk}, Seattle, Seattle WA)" in body and ", Rose, Portland)" in body
    token = next(line.split('name="')[1].split('"')[0] for line in body.splitlines() if 'type="radio"' in line)
    assert client.post(response["Location"], {token: str(seattle.pk)}).status_code == 302
    assert Game.objects.get().seats.get(number=7).player == seattle  # that person, not a copy of him
    assert Player.objects.filter(nickname_key="golf").count() == 2


def test_only_the_club_admin_uploads(db, client, english):
    Club.objects.create(name="Vancouver")
    client.force_login(get_user_model().objects.create_user("nobody"))
    assert client.get(reverse("games:history_import")).status_code == 403
    assert client.get(reverse("games:results_template")).status_code == 403


def test_the_tournament_page_offers_the_mafiaratings_download(admin, client, english, tmp_path):
    _upload(client, [mr_games.full_game()])
    client.post(reverse("games:history_review", kwargs={"pk": PendingHistoryImport.objects.get().pk}), {})
    tournament = Tournament.objects.get()
    page = client.get(reverse("games:tournament_detail", kwargs={"pk": tournament.pk})).content.decode()
    assert reverse("games:tournament_mafiaratings", kwargs={"pk": tournament.pk}) in page
    data = client.get(reverse("games:tournament_mafiaratings", kwargs={"pk": tournament.pk})).json()
    assert [g["id"] for g in data["games"]] == ["5001"] and data["games"][0]["players"][0]["id"] == "100"
    assert "email" not in data["games"][0]["players"][0]


def test_the_page_shows_a_problem_in_the_reader_s_language(admin, client):
    raw = mr_games.full_game()
    raw["winner"] = "nobody"
    body = _upload(client, [raw]).content.decode()
    assert "games[0].winner: должно быть civ, maf или tie, а не &#x27;nobody&#x27;" in body
