"""A player's photo: uploaded by the player himself or his club's admin, checked, resized, served from MEDIA_ROOT."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from club import photos, pictures
from club.models import Player


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def _picture(kind: str = "PNG", size=(1200, 800)) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, kind)
    return SimpleUploadedFile(f"me.{kind.lower()}", out.getvalue(), content_type=f"image/{kind.lower()}")


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["player", "club_admin"])
def test_the_player_or_the_club_admin_uploads_a_photo_that_is_resized_to_a_square(cast, client, who):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast[who])
    response = client.post(reverse("player_photo", args=[fox.pk]), {"photo": _picture()})
    assert response.status_code == 302 and response["Location"] == reverse("player_detail", args=[fox.pk])
    fox.refresh_from_db()
    with Image.open(fox.photo.path) as stored:
        assert stored.format == "JPEG" and stored.size == (photos.SIDE, photos.SIDE)
    assert fox.photo.url in client.get(reverse("player_detail", args=[fox.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "outsider", "judge", "other_judge"])
def test_nobody_else_may_change_a_players_photo(cast, client, who):
    fox = Player.objects.get(nickname="Лиса")
    if who != "anonymous":
        client.force_login(cast[who])
    response = client.post(reverse("player_photo", args=[fox.pk]), {"photo": _picture()})
    assert response.status_code in (302, 403)
    if who == "anonymous":
        assert reverse("login") in response["Location"]
    fox.refresh_from_db()
    assert not fox.photo


@pytest.mark.django_db
@pytest.mark.parametrize("upload,message", [
    (SimpleUploadedFile("x.jpg", b"<svg onload=alert(1)>", content_type="image/jpeg"), "не читается как картинка"),
    ("gif", "только изображения JPEG, PNG и WebP"),
])
def test_a_file_that_is_not_an_accepted_picture_is_refused_naming_the_field(cast, client, upload, message):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    if upload == "gif":
        upload = _picture("GIF", (20, 20))
    response = client.post(reverse("player_photo", args=[fox.pk]), {"photo": upload})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Фото:" in body and message in body
    fox.refresh_from_db()
    assert not fox.photo


@pytest.mark.django_db
def test_a_file_over_five_megabytes_is_refused(cast, client, monkeypatch):
    monkeypatch.setattr(pictures, "MAX_BYTES", 100)
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    response = client.post(reverse("player_photo", args=[fox.pk]), {"photo": _picture()})
    assert response.status_code == 400 and "файл больше 5 МБ" in response.content.decode()


@pytest.mark.django_db
def test_the_player_removes_his_photo_and_the_card_shows_initials(cast, client):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    client.post(reverse("player_photo", args=[fox.pk]), {"photo": _picture()})
    response = client.post(reverse("player_photo", args=[fox.pk]), {"remove": "on"})
    assert response.status_code == 302
    fox.refresh_from_db()
    assert not fox.photo
    html = client.get(reverse("player_detail", args=[fox.pk])).content.decode()
    assert 'class="player-initials"' in html and ">ЛИ<" in html
