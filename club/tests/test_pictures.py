"""Every picture the site stores is one it wrote itself (club.pictures): whichever form writes a player's photo or
the club's logo — the photo page, the player form, /admin/ — the stored file is re-encoded from the pixels alone,
bounded in size, without metadata; bad files are refused naming the field; replaced files leave the storage."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from PIL import Image

from club import pictures
from club.models import Club, Player
from club.tests import craft
from club.tests.factories import PlayerFactory


@pytest.fixture(autouse=True)
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _stored(media: Path) -> list[Path]:
    return sorted(path for path in media.rglob("*") if path.is_file())


def _assert_clean(path: Path, *, kind: str, side: int) -> None:
    """The stored picture: our format and size, and nothing of the upload but its pixels."""
    data = path.read_bytes()
    for secret in (craft.HTML, craft.COMMENT, craft.XMP, b"where-i-live", b"<script", b"Exif", b"ICC_PROFILE"):
        assert secret not in data, (path, secret)
    with Image.open(path) as stored:
        assert stored.format == kind and stored.size == (side, side)
        assert not stored.getexif(), stored.getexif()
        assert not {"exif", "comment", "icc_profile", "xmp", "XML:com.adobe.xmp", "Comment", "dpi"} & set(stored.info)
        if kind == "JPEG":
            assert [marker for marker, _ in stored.applist] == ["APP0"]  # JFIF only: no APP1 (EXIF/XMP), APP2 (ICC)


# --- the site's player form and the admin's player form ------------------------------------------------------------

def _player_form(client, cast, data: bytes, *, url: str | None = None, name: str = "me.jpg"):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.club_admin)
    return client.post(url or reverse("player_edit", args=[fox.pk]),
                       {"nickname": "Лиса", "joined": "2025-01-01", "active": "on", "photo": craft.upload(data, name)})


def _admin_player_form(client, cast, data: bytes, *, name: str = "me.jpg"):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.club_admin)
    return client.post(reverse("admin:club_player_change", args=[fox.pk]),
                       {"club": cast.club.pk, "nickname": "Лиса", "joined": "2025-01-01", "active": "on",
                        "real_name": fox.real_name, "photo": craft.upload(data, name)})


FORMS = {"player-edit": _player_form, "admin-player": _admin_player_form}


@pytest.mark.django_db
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("upload", ["jpeg-with-gps-comment-xmp-icc", "png-with-everything-and-html"])
def test_every_player_form_stores_the_photo_re_encoded_without_metadata(cast, client, media, form, upload):
    data = craft.jpeg_with_everything() if upload.startswith("jpeg") else craft.png_with_everything()
    response = FORMS[form](client, cast, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    fox = Player.objects.get(nickname="Лиса")
    assert fox.photo.name.startswith("players/") and fox.photo.name.endswith(".jpg")
    assert _stored(media) == [media / fox.photo.name]
    _assert_clean(media / fox.photo.name, kind="JPEG", side=pictures.PHOTO.side)


@pytest.mark.django_db
def test_a_rotated_photo_is_stored_upright(cast, client, media):
    response = _player_form(client, cast, craft.jpeg_with_everything(size=(800, 600)))
    assert response.status_code == 302
    fox = Player.objects.get(nickname="Лиса")
    with Image.open(media / fox.photo.name) as stored:
        assert stored.size == (512, 512)  # orientation 6 read, then dropped: nothing left to turn it again
        assert stored.getexif().get(0x0112) is None


@pytest.mark.django_db
@pytest.mark.parametrize("form", [*FORMS, "player-new"])
@pytest.mark.parametrize("upload", craft.REFUSED)
def test_every_player_form_refuses_what_the_photo_page_refuses_naming_the_field(cast, client, media, form, upload):
    data, message = craft.REFUSED[upload]
    before = Player.objects.count()
    if form == "player-new":
        response = _player_form(client, cast, data, url=reverse("player_create"))
    else:
        response = FORMS[form](client, cast, data)
    body = response.content.decode()
    if len(data) > settings.PHOTO_REQUEST_MAX_SIZE:
        # refused by its Content-Length before a byte is read (club.middleware.RequestSizeMiddleware), limit named
        assert response.status_code == 413 and "5,2\xa0МБ" in body
    else:
        assert response.status_code in (200, 400)  # the admin shows its form again with 200, the site with 400
        assert form == "admin-player" or response.status_code == 400
        assert f"Фото: {message}" in body
    assert Player.objects.count() == before and not Player.objects.get(nickname="Лиса").photo
    assert _stored(media) == []


@pytest.mark.django_db(transaction=True)  # the files go when the change is committed
@pytest.mark.parametrize("form", FORMS)
def test_a_replaced_or_cleared_photo_leaves_the_storage(cast, client, media, form):
    FORMS[form](client, cast, craft.picture("PNG"))
    first = Player.objects.get(nickname="Лиса").photo.name
    FORMS[form](client, cast, craft.picture("WEBP"))
    second = Player.objects.get(nickname="Лиса").photo.name
    assert first != second and _stored(media) == [media / second]
    fox = Player.objects.get(nickname="Лиса")
    if form == "admin-player":
        url = reverse("admin:club_player_change", args=[fox.pk])
        data = {"club": cast.club.pk, "nickname": "Лиса", "joined": "2025-01-01", "active": "on",
                "real_name": fox.real_name, "photo-clear": "on"}
    else:
        url = reverse("player_edit", args=[fox.pk])
        data = {"nickname": "Лиса", "joined": "2025-01-01", "active": "on", "photo-clear": "on"}
    assert client.post(url, data).status_code == 302
    assert not Player.objects.get(nickname="Лиса").photo and _stored(media) == []


@pytest.mark.django_db(transaction=True)  # the files go when the change is committed
def test_the_photo_page_deletes_the_photo_it_replaces_and_the_one_it_removes(cast, client, media):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    url = reverse("player_photo", args=[fox.pk])
    client.post(url, {"photo": craft.upload(craft.picture("PNG"), "a.png")})
    client.post(url, {"photo": craft.upload(craft.picture("JPEG"), "b.jpg")})
    fox.refresh_from_db()
    assert _stored(media) == [media / fox.photo.name]
    client.post(url, {"remove": "on"})
    assert _stored(media) == []


@pytest.mark.django_db(transaction=True)  # the files go when the change is committed
def test_a_deleted_players_photo_leaves_the_storage(cast, client, media):
    newcomer = PlayerFactory(club=cast.club, nickname="Новичок")
    client.force_login(cast.club_admin)
    url = reverse("player_photo", args=[newcomer.pk])
    assert client.post(url, {"photo": craft.upload(craft.picture("PNG"), "a.png")}).status_code == 302
    assert len(_stored(media)) == 1
    response = client.post(reverse("admin:club_player_delete", args=[newcomer.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Player.objects.filter(pk=newcomer.pk).exists()
    assert _stored(media) == []


@pytest.mark.django_db(transaction=True)  # the files go when the change is committed
def test_a_photo_written_in_code_is_re_encoded_too(cast, media):
    fox = Player.objects.get(nickname="Лиса")
    fox.photo = craft.upload(craft.jpeg_with_everything(), "raw.jpg")
    fox.save()
    _assert_clean(media / fox.photo.name, kind="JPEG", side=512)
    fox.photo.save("raw.png", craft.upload(craft.png_with_everything(), "raw.png"))
    assert _stored(media) == [media / fox.photo.name]
    _assert_clean(media / fox.photo.name, kind="JPEG", side=512)


@pytest.mark.django_db(transaction=True)
def test_a_stored_name_put_back_keeps_the_file_it_replaces(cast, media):
    """The admin's history revert writes an older name back: the current file stays (it may be wanted again)."""
    fox = Player.objects.get(nickname="Лиса")
    fox.photo = craft.upload(craft.picture("PNG"), "a.png")
    fox.save()
    first = fox.photo.name
    fox.photo = craft.upload(craft.picture("PNG"), "b.png")
    fox.save()
    second = fox.photo.name
    assert _stored(media) == [media / second]
    fox.photo = first
    fox.save()
    assert _stored(media) == [media / second]


# --- the club's logo in /admin/ ------------------------------------------------------------------------------------

def _logo_form(client, cast, data: bytes | None, *, clear: bool = False):
    client.force_login(cast.club_admin)
    url = reverse("admin:club_club_change", args=[cast.club.pk])
    form = client.get(url).context["adminform"].form
    post = {name: value for name, value in form.initial.items() if value and name != "logo"}
    post.update({"name": cast.club.name, "judge_timer_autostart": "on",
                 "default_ruleset": ""})
    if data is not None:
        post["logo"] = craft.upload(data, "logo.png", "image/png")
    if clear:
        post["logo-clear"] = "on"
    return client.post(url, post)


@pytest.mark.django_db
def test_the_logo_is_re_encoded_whole_into_a_transparent_square_without_metadata(cast, client, media):
    response = _logo_form(client, cast, craft.picture("PNG", (600, 200), mode="RGBA") + craft.HTML)
    assert response.status_code == 302, response.content.decode()[:3000]
    logo = Club.objects.get(pk=cast.club.pk).logo
    assert logo.name.startswith("club/") and logo.name.endswith(".png")
    _assert_clean(media / logo.name, kind="PNG", side=pictures.LOGO.side)
    with Image.open(media / logo.name) as stored:
        assert stored.mode == "RGBA" and stored.getpixel((0, 0))[3] == 0  # the margin above the wide logo


@pytest.mark.django_db
@pytest.mark.parametrize("upload", ["jpeg-6.4-mb", "png-144-megapixels", "gif-with-html", "eps"])
def test_the_logo_form_refuses_what_the_photo_page_refuses_naming_the_logo(cast, client, media, upload):
    data, message = craft.REFUSED[upload]
    response = _logo_form(client, cast, data)
    if len(data) > settings.PHOTO_REQUEST_MAX_SIZE:  # refused by its Content-Length before a byte is read
        assert response.status_code == 413 and "5,2\xa0МБ" in response.content.decode()
    else:
        assert response.status_code == 200 and f"Логотип: {message}" in response.content.decode()
    assert not Club.objects.get(pk=cast.club.pk).logo and _stored(media) == []


@pytest.mark.django_db(transaction=True)  # the files go when the change is committed
def test_a_replaced_or_cleared_logo_leaves_the_storage(cast, client, media):
    assert _logo_form(client, cast, craft.picture("PNG")).status_code == 302
    assert _logo_form(client, cast, craft.picture("JPEG")).status_code == 302
    assert _stored(media) == [media / Club.objects.get(pk=cast.club.pk).logo.name]
    assert _logo_form(client, cast, None, clear=True).status_code == 302
    assert not Club.objects.get(pk=cast.club.pk).logo and _stored(media) == []


# --- malformed pictures on the photo page --------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("upload", craft.MALFORMED)
def test_a_malformed_picture_is_a_400_naming_the_field_and_nothing_is_stored(cast, client, media, upload):
    fox = Player.objects.get(nickname="Лиса")
    client.force_login(cast.player)
    response = client.post(reverse("player_photo", args=[fox.pk]),
                           {"photo": craft.upload(craft.MALFORMED[upload], "me.png", "image/png")})
    assert response.status_code == 400
    assert "Фото: файл не читается как картинка" in response.content.decode()
    assert not Player.objects.get(pk=fox.pk).photo and _stored(media) == []


@pytest.mark.parametrize("upload", craft.MALFORMED)
def test_normalized_refuses_every_malformed_picture_with_the_fields_message(upload):
    with pytest.raises(pictures.PictureError) as refused:
        pictures.normalized(craft.upload(craft.MALFORMED[upload]), pictures.LOGO)
    assert refused.value.messages == ["Логотип: файл не читается как картинка."]


def test_a_stored_name_is_new_for_every_upload():
    data = craft.picture("PNG", (10, 10))
    names = {pictures.normalized(io.BytesIO(data) and craft.upload(data)).name for _ in range(20)}
    assert len(names) == 20


# --- pictures stored before every write was re-encoded --------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_normalize_pictures_re_encodes_what_was_stored_byte_for_byte_and_removes_what_cannot_be_read(cast, media):
    (media / "players").mkdir()
    (media / "club").mkdir()
    (media / "players" / "gps.jpg").write_bytes(craft.jpeg_with_everything())
    (media / "club" / "logo.eps").write_bytes(craft.REFUSED["eps"][0])
    fox = Player.objects.get(nickname="Лиса")
    Player.objects.filter(pk=fox.pk).update(photo="players/gps.jpg")
    Club.objects.filter(pk=cast.club.pk).update(logo="club/logo.eps")
    Club.objects.filter(pk=cast.other_club.pk).update(logo="club/missing.png")
    out = io.StringIO()
    call_command("normalize_pictures", stdout=out)
    fox.refresh_from_db()
    assert fox.photo.name != "players/gps.jpg"
    _assert_clean(media / fox.photo.name, kind="JPEG", side=512)
    assert not Club.objects.get(pk=cast.club.pk).logo
    assert Club.objects.get(pk=cast.other_club.pk).logo.name == "club/missing.png"  # nothing to read: left
    assert _stored(media) == [media / fox.photo.name]
    assert "2 changed" in out.getvalue() and "logo.eps: removed (" in out.getvalue()
    again = io.StringIO()
    call_command("normalize_pictures", stdout=again)
    assert "0 changed" in again.getvalue() and Player.objects.get(pk=fox.pk).photo.name == fox.photo.name


@pytest.mark.parametrize("upload", ["png-truncated-idat", "png-ztxt-inflates-past-limit", "jpeg-truncated"])
def test_an_upload_is_read_strictly_after_a_pdf_sheet_was_drawn_in_the_process(upload, monkeypatch):
    """WeasyPrint turns on Pillow's process-wide LOAD_TRUNCATED_IMAGES when it is imported: a gunicorn worker that
    had drawn a protocol sheet then took a truncated picture or an over-long PNG chunk as a picture."""
    import weasyprint  # noqa: F401 — its import is the point
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)  # as WeasyPrint leaves it
    with pytest.raises(pictures.PictureError):
        pictures.normalized(craft.upload(craft.MALFORMED[upload]), pictures.LOGO)
