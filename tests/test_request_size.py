"""Request bodies are refused by their Content-Length before they are read (club.middleware.RequestSizeMiddleware):
every form at DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), the photo pages at PHOTO_REQUEST_MAX_SIZE, the protocol imports
(web and API) at IMPORT_REQUEST_MAX_SIZE; 413 with the Russian page, the API's JSON under /api/; a body without a
length (chunked) 411. `tests/test_faults_server.py` sends the 60 MB body to gunicorn."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from api.services import token_issue
from club.models import Membership, Player
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
MB = 1024 * 1024


class Watched(io.BytesIO):
    """A request's input that counts what the site read of it."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.taken = 0

    def read(self, size=-1):
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk

    def readline(self, size=-1):
        line = super().readline(size)
        self.taken += len(line)
        return line


def _multipart(fields: dict) -> bytes:
    return encode_multipart(BOUNDARY, fields)


def _declared(client: Client, path: str, length: int, *, content_type: str = MULTIPART_CONTENT, **extra):
    """POST `path` declaring a body of `length` bytes while sending only its first kilobyte (as a client still
    sending would): an answer proves the site did not wait for the rest; the input counts what was read."""
    start = _multipart({"username": "x", "password": "y"}) if content_type == MULTIPART_CONTENT else b"{" * 1024
    stream = Watched(start)
    response = client.generic("POST", path, b"", content_type=content_type,
                              **{"CONTENT_LENGTH": str(length), "CONTENT_TYPE": content_type, "wsgi.input": stream},
                              **extra)
    return response, stream


@pytest.fixture
def club_admin():
    club = ClubFactory(name="Полночь")
    admin = MembershipFactory(club=club, role=Membership.Role.ADMIN, user=UserFactory(username="boss")).user
    PlayerFactory(club=club, nickname="Лиса")
    return admin


def test_an_anonymous_60_mb_login_is_refused_by_its_length_before_a_byte_is_read():
    response, stream = _declared(Client(), "/login/", 60 * MB)
    page = response.content.decode()
    assert response.status_code == 413 and stream.taken == 0
    assert "Запрос слишком большой" in page and "2,5\xa0МБ" in page and "ничего не сохранено" in page
    assert response["Content-Type"].startswith("text/html")


def test_a_form_body_over_2_5_mb_is_refused_even_when_most_of_it_is_a_file():
    body = _multipart({"username": "x", "password": "y", "f": io.BytesIO(b"\0" * (3 * MB))})
    response = Client().generic("POST", "/login/", body, content_type=MULTIPART_CONTENT)
    assert response.status_code == 413 and "2,5\xa0МБ" in response.content.decode()


def test_a_form_under_the_limit_is_served_as_before():
    response = Client().post("/login/", {"username": "nobody", "password": "wrong"})
    assert response.status_code == 200 and "form" in response.content.decode()


def test_the_photo_page_takes_a_large_photo_but_not_more_than_its_limit(club_admin, settings):
    fox = Player.objects.get(nickname="Лиса")
    client = Client()
    client.force_login(club_admin)
    url = f"/players/{fox.pk}/photo/"
    # 4 MB is over the forms' 2.5 MB: the photo page's own check answers (not a picture), not the size refusal
    body = _multipart({"photo": io.BytesIO(b"\0" * (4 * MB))})
    answer = client.generic("POST", url, body, content_type=MULTIPART_CONTENT)
    assert answer.status_code == 400 and "Фото: файл не читается как картинка" in answer.content.decode()
    response, stream = _declared(client, url, settings.PHOTO_REQUEST_MAX_SIZE + 1)
    assert response.status_code == 413 and stream.taken == 0 and "5,2\xa0МБ" in response.content.decode()
    assert not Player.objects.get(pk=fox.pk).photo


def test_the_web_import_takes_up_to_its_limit(club_admin, settings):
    client = Client()
    client.force_login(club_admin)
    body = _multipart({"files": io.BytesIO(b" " * (3 * MB) + b"{}")})
    answer = client.generic("POST", "/games/import/", body, content_type=MULTIPART_CONTENT)
    assert answer.status_code == 400 and "mafclub/1" in answer.content.decode()  # the import's own message
    response, stream = _declared(client, "/games/import/", settings.IMPORT_REQUEST_MAX_SIZE + 1)
    assert response.status_code == 413 and stream.taken == 0 and "20,2\xa0МБ" in response.content.decode()


def test_the_api_import_takes_up_to_its_limit_and_answers_json(club_admin, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 0
    club = club_admin.memberships.get().club
    _token, key = token_issue(club=club, by=club_admin, name="бот", holder=club_admin)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    document = json.dumps({"format": "mafclub/1", "games": []}) + " " * (3 * MB)
    answer = Client().post("/api/v1/imports/", document, content_type="application/json", **auth)
    assert answer.status_code == 400 and answer["Content-Type"].startswith("application/json")  # the import's own problems
    assert "problems" in json.loads(answer.content)
    response, stream = _declared(Client(), "/api/v1/imports/", settings.IMPORT_REQUEST_MAX_SIZE + 1,
                                 content_type="application/json", **auth)
    assert response.status_code == 413 and stream.taken == 0
    assert response["Content-Type"].startswith("application/json")
    assert "20,2\xa0МБ" in json.loads(response.content)["detail"]
    other, _stream = _declared(Client(), "/api/v1/clubs/", 3 * MB, content_type="application/json")
    assert other.status_code == 413 and "2,5\xa0МБ" in json.loads(other.content)["detail"]


def test_a_body_without_its_length_is_refused_with_411():
    stream = Watched(b"5\r\nhello\r\n0\r\n\r\n")
    response = Client().generic("POST", "/login/", b"", content_type="application/x-www-form-urlencoded",
                                **{"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": stream})
    assert response.status_code == 411 and stream.taken == 0
    assert "Content-Length" in response.content.decode()
