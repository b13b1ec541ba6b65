"""The site serves its uploads itself with DEBUG off (club/views_media.py): a small club runs gunicorn alone.

Only regular files under MEDIA_ROOT, typed by their bytes as JPEG, PNG or WebP (never HTML, whatever the name or
the bytes say), with nosniff and the caching headers; SERVE_MEDIA=0 leaves /media/ to the web server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from club import pictures
from club.models import Player
from club.tests import craft


@pytest.fixture(autouse=True)
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.MEDIA_ROOT.mkdir()
    return settings.MEDIA_ROOT


def _get(client, url: str, **headers):
    with override_settings(DEBUG=False):
        return client.get(url, headers=headers)


@pytest.mark.django_db
def test_an_uploaded_photo_is_served_with_debug_off_as_an_image_with_caching_headers(cast, client, media):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    client.post(reverse("player_photo", args=[fox.pk]), {"photo": craft.upload(craft.jpeg_with_everything())})
    fox.refresh_from_db()
    client.logout()
    with override_settings(DEBUG=False):
        card = client.get(reverse("player_detail", args=[fox.pk])).content.decode()
    assert fox.photo.url == f"/media/{fox.photo.name}" and fox.photo.url in card
    response = _get(client, fox.photo.url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg" and response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content) == (media / fox.photo.name).read_bytes()
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["ETag"] and response["Last-Modified"]
    again = _get(client, fox.photo.url, if_none_match=response["ETag"])
    assert again.status_code == 304 and again["ETag"] == response["ETag"]
    since = _get(client, fox.photo.url, if_modified_since=response["Last-Modified"])
    assert since.status_code == 304


@pytest.mark.django_db
@pytest.mark.parametrize("name,data,content_type", [
    ("club/logo.png", craft.picture("PNG", (8, 8)), "image/png"),
    ("players/a.webp", craft.picture("WEBP", (8, 8)), "image/webp"),
    ("players/named-html.html", craft.picture("JPEG", (8, 8)), "image/jpeg"),  # the bytes decide, not the name
], ids=["png", "webp", "jpeg-named-html"])
def test_the_type_comes_from_the_bytes(client, media, name, data, content_type):
    (media / name).parent.mkdir(parents=True, exist_ok=True)
    (media / name).write_bytes(data)
    response = _get(client, f"/media/{name}")
    assert response.status_code == 200 and response["Content-Type"] == content_type
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_nothing_but_a_picture_under_media_root_is_ever_served(client, media, tmp_path):
    (media / "players").mkdir()
    (media / "players" / "evil.jpg").write_bytes(craft.HTML)  # HTML under an image's name
    (media / "players" / "page.html").write_bytes(b"<!doctype html>" + craft.HTML)
    (media / "players" / "gif.gif").write_bytes(craft.picture("GIF", (8, 8)) + craft.HTML)
    (media / "players" / "svg.jpg").write_bytes(craft.MALFORMED["svg"])
    (media / "players" / ".hidden.jpg").write_bytes(craft.picture("JPEG", (8, 8)))
    (tmp_path / "secret.jpg").write_bytes(craft.picture("JPEG", (8, 8)))  # beside MEDIA_ROOT, not in it
    os.symlink(tmp_path / "secret.jpg", media / "players" / "link.jpg")
    for path in ["players/evil.jpg", "players/page.html", "players/gif.gif", "players/svg.jpg",
                 "players/.hidden.jpg", "players/link.jpg", "players/", "players", "../secret.jpg",
                 "players/../../secret.jpg", "%2e%2e/secret.jpg", "players/%2e%2e/%2e%2e/secret.jpg",
                 "/etc/passwd", "%2fetc%2fpasswd", "players//evil.jpg", "players/missing.jpg",
                 "players/%00.jpg", "players\\..\\..\\secret.jpg"]:
        response = _get(client, f"/media/{path}")
        assert response.status_code == 404, path
        assert "image/" not in response.get("Content-Type", ""), path


@pytest.mark.django_db
def test_serve_media_off_leaves_media_to_the_web_server(client, media):
    (media / "a.png").write_bytes(craft.picture("PNG", (8, 8)))
    assert _get(client, "/media/a.png").status_code == 200
    with override_settings(SERVE_MEDIA=False):
        assert _get(client, "/media/a.png").status_code == 404


@pytest.mark.django_db
def test_only_get_and_head(client, media):
    (media / "a.png").write_bytes(craft.picture("PNG", (8, 8)))
    with override_settings(DEBUG=False):
        assert client.head("/media/a.png").status_code == 200
        assert client.post("/media/a.png").status_code == 405


def test_a_replaced_picture_gets_a_new_name(media):
    first = pictures.normalized(craft.upload(craft.picture("PNG", (8, 8))))
    second = pictures.normalized(craft.upload(craft.picture("PNG", (8, 8))))
    assert first.name != second.name and len(first.name) >= 32
