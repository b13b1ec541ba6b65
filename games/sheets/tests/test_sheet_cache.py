"""A finished or signed game's PDF is served from the cache on the second request and answers a conditional GET with 304;
whatever the sheet prints changing (a rescoring, a renamed player, the language) makes a new one."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat
from games.sheets import views as views_sheets

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """Count the WeasyPrint renders of the game sheet view."""
    calls = []
    original = views_sheets._render_game_pdf

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(views_sheets, "_render_game_pdf", counting)
    return calls


@pytest.fixture(params=["signed", "finished"])
def signed(games, request):
    """A signed game, and a finished one (as every imported game is)."""
    finished, _ = games
    if request.param == "signed":
        Game.objects.filter(pk=finished.pk).update(status=Game.Status.SIGNED, signed_at=timezone.now())
    return Game.objects.get(pk=finished.pk)


def test_second_request_is_served_from_the_cache_and_a_conditional_get_is_304(client, signed, renders):
    url = reverse("games:protocol_pdf", args=[signed.pk])
    first = client.get(url)
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    assert first["ETag"].startswith('"') and first["Last-Modified"]
    assert "no-cache" in first["Cache-Control"]
    second = client.get(url)
    assert second.status_code == 200 and second.content == first.content
    assert len(renders) == 1  # the second one came from the cache
    conditional = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert conditional.status_code == 304 and conditional.content == b""
    assert conditional["ETag"] == first["ETag"]
    since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    assert len(renders) == 1
    other = client.get(url, HTTP_IF_NONE_MATCH='"something-else"')
    assert other.status_code == 200 and len(renders) == 1
    cache.clear()  # the ETag is the digest of the printed state: still valid after the cache lost the PDF
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(url).status_code == 200 and len(renders) == 2


def test_a_changed_score_a_renamed_player_or_another_language_is_a_new_sheet(client, signed, renders):
    url = reverse("games:protocol_pdf", args=[signed.pk])
    tag = client.get(url)["ETag"]
    english = client.get(url + "?lang=en")
    assert english["ETag"] != tag and len(renders) == 2
    seat = Seat.objects.filter(game=signed).order_by("number").first()
    Seat.objects.filter(pk=seat.pk).update(total=seat.total + 1)  # a protest on another game rescored it (Ci)
    rescored = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert rescored.status_code == 200 and rescored["ETag"] != tag and len(renders) == 3
    player = seat.player
    player.nickname = "Переименован"
    player.save()
    renamed = client.get(url, HTTP_IF_NONE_MATCH=rescored["ETag"])
    assert renamed.status_code == 200 and renamed["ETag"] != rescored["ETag"] and len(renders) == 4


def test_a_correction_or_a_reversed_result_is_a_new_sheet(client, signed, renders):
    """A judge's correction moves the game's version; a protest's decision its result and scores."""
    url = reverse("games:protocol_pdf", args=[signed.pk])
    tag = client.get(url)["ETag"]
    Game.objects.filter(pk=signed.pk).update(version=signed.version + 1)
    corrected = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert corrected.status_code == 200 and corrected["ETag"] != tag and len(renders) == 2
    Game.objects.filter(pk=signed.pk).update(result="black" if signed.result != "black" else "red")
    reversed_ = client.get(url, HTTP_IF_NONE_MATCH=corrected["ETag"])
    assert reversed_.status_code == 200 and reversed_["ETag"] != corrected["ETag"] and len(renders) == 3


def test_a_game_in_play_is_rendered_every_time_without_an_etag(client, games, renders):
    _, in_play = games
    url = reverse("games:protocol_pdf", args=[in_play.pk])
    assert "ETag" not in client.get(url)
    client.get(url)
    assert len(renders) == 2
