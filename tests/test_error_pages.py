"""Hostile requests and a database that does not answer: a 400/413/503 page that needs neither the user nor the
database (club/views_errors.py), never a 500.

A foreign Host header, a body over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) and more than DATA_UPLOAD_MAX_NUMBER_FIELDS
(1,000) fields are refused before authentication runs; the error pages used to extend the site's frame, whose
context processor reads `request.user` and the club from the database, and crashed into the generic 500.
The same requests against gunicorn with DEBUG=0: tests/test_faults_server.py.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

HOSTILE = {
    "foreign Host": dict(method="get", path="/password/reset/", extra={"HTTP_HOST": "evil.example"}),
    "foreign Host on a POST": dict(method="post", path="/login/", data={"username": "x"},
                                   extra={"HTTP_HOST": "evil.example"}),
    "1,001 fields": dict(method="post", path="/login/", data={f"f{i}": "x" for i in range(1001)}),
    "1,001 query fields": dict(method="get", path="/players/?" + "&".join(f"q{i}=x" for i in range(1001))),
    "a body over 2.5 MB": dict(method="post", path="/password/reset/", data={"email": "a" * (2_621_440 + 10)}),
}
EXPECTED = {"foreign Host": (400, "не обслуживает"), "foreign Host on a POST": (400, "не обслуживает"),
            "1,001 fields": (400, "больше 1000 полей"), "1,001 query fields": (400, "больше 1000 полей"),
            "a body over 2.5 MB": (413, "2,5\xa0МБ")}


def _send(client: Client, case: dict):
    call = getattr(client, case["method"])
    if case["method"] == "post":
        return call(case["path"], case.get("data", {}), **case.get("extra", {}))
    return call(case["path"], **case.get("extra", {}))


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_request_is_refused_with_a_russian_page_not_a_500(case, settings):
    settings.DEBUG = False  # with DEBUG on Django shows its own technical page instead
    response = _send(Client(raise_request_exception=False), HOSTILE[case])
    status, words = EXPECTED[case]
    assert response.status_code == status, response.content[:400]
    body = response.content.decode()
    assert words in body and "На главную" in body and "</html>" in body, body


def test_the_refused_request_saved_nothing(settings):
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    fields = {"username": "newcomer", "password1": "Long-enough-2026", "password2": "Long-enough-2026",
              **{f"f{i}": "x" for i in range(1000)}}
    assert client.post(reverse("signup"), fields).status_code == 400
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("status", [400, 403, 404, 413, 500, 503])
def test_every_error_page_renders_without_a_user_and_without_the_database(status, rf):
    from club import views_errors

    request = rf.get("/somewhere/")  # no session, no user: what a request refused by a middleware looks like
    pages = {400: lambda: views_errors.bad_request(request), 403: lambda: views_errors.permission_denied(request),
             404: lambda: views_errors.page_not_found(request),
             413: lambda: views_errors.render_error(request, 413, {"limit": 2_621_440}),
             500: lambda: views_errors.server_error(request), 503: lambda: views_errors.database_unavailable(request)}
    with mock.patch.object(connection, "cursor", side_effect=AssertionError("the error page used the database")):
        response = pages[status]()
    assert response.status_code == status
    body = response.content.decode()
    assert '<html lang="ru">' in body and "На главную" in body


def _database_down():
    error = OperationalError('connection failed: connection to server at "127.0.0.1", port 5432 failed: '
                             "Connection refused")
    return mock.patch.object(connection, "cursor", side_effect=error)


@pytest.fixture
def demo(db):
    from tests.site_walk import build_scene

    return build_scene()


def test_with_the_database_down_pages_and_judge_actions_answer_503_with_retry_after(demo, settings):
    settings.DEBUG = False
    judge, anonymous = Client(raise_request_exception=False), Client(raise_request_exception=False)
    from django.contrib.auth import get_user_model

    judge.force_login(get_user_model().objects.get(username="admin"))
    game = demo.ids["game"][-1]
    with _database_down():
        answers = {path: anonymous.get(path) for path in ("/", "/ratings/", "/players/", f"/games/{game}/")}
        answers["judge action"] = judge.post(reverse("games:judge_action", args=[game, "foul"]),
                                             {"seat": "3", "version": "1", "action_id": "a" * 32},
                                             HTTP_HX_REQUEST="true")
        answers["judge screen"] = judge.get(reverse("games:judge", args=[game]))
    for what, response in answers.items():
        assert response.status_code == 503, (what, response.status_code, response.content[:300])
        assert response["Retry-After"] == "5", what
        body = response.content.decode()
        assert "База данных не отвечает" in body and "Traceback" not in body, what
    # and at once when it answers again
    assert anonymous.get("/ratings/").status_code == 200


def test_a_database_error_that_is_not_an_outage_stays_a_500(settings):
    from club.db import is_unavailable

    assert not is_unavailable(OperationalError("no such table: club_club"))
    assert not is_unavailable(OperationalError("database is locked"))  # a conflict: the busy answer
    assert is_unavailable(OperationalError("terminating connection due to administrator command"))


def test_a_foreign_host_is_refused_before_the_https_redirect_too(settings):
    """With SECURE_SSL_REDIRECT (production's default) the Host is read by the first middleware, before the
    language is chosen: still the Russian 400 page, not a redirect to the foreign host or a 500."""
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = True
    response = Client(raise_request_exception=False).get("/ratings/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "не обслуживает" in response.content.decode()
