"""The API's HTTP manners: OpenAPI 3, conditional GETs (ETag, Last-Modified, 304), CORS for GET only, the
per-address rate limit (429 + Retry-After) that lets requests through when the cache is down, pagination and the
date filter, HEAD on every read, errors in JSON whoever answers them (a NUL, a method, a body too large), and no
cache for the page that shows a new key."""

from __future__ import annotations

import json
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client

from api.tests.helpers import bearer, cast_in_night_one, play, token_for
from api.tests.test_api_secrecy import every_get_url
from club.cache import _Outage
from club.settings import cache_config
from tests.test_production import _free_port

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_and_the_docs_page_needs_no_cdn():
    schema = json.loads(Client().get("/api/v1/openapi.json").content)
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/games/{game_id}/" in schema["paths"] and "/api/v1/imports/" in schema["paths"]
    docs = Client().get("/api/v1/docs")
    html = docs.content.decode()
    assert docs.status_code == 200 and "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower() and "<script>" not in html  # no inline script: the site's CSP holds
    assert "'unsafe-inline'" not in docs["Content-Security-Policy"].split("script-src")[1].split(";")[0]


def test_an_unchanged_poll_answers_304_and_a_judges_tap_changes_the_etag():
    cast = cast_in_night_one()
    client, url = Client(), f"/api/v1/games/{cast.game.pk}/"
    first = client.get(url)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert first.status_code == 200 and etag.startswith('"')
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    play(cast.game, cast.judge, [("day", {})])  # the morning: the night's kill is announced
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert json.loads(changed.content)["nights"][0]["kill"] == 1


def test_the_etag_differs_by_reader_and_the_answer_varies_on_authorization():
    cast = cast_in_night_one()
    url = f"/api/v1/games/{cast.game.pk}/"
    anonymous = Client().get(url)
    judge = Client()
    judge.force_login(cast.judge)
    assert judge.get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 200  # he sees the roles
    assert "Authorization" in anonymous["Vary"] and "Cookie" in anonymous["Vary"]


def test_cors_allows_any_origin_to_get_and_no_other_method():
    response = Client().get("/api/v1/clubs/", HTTP_ORIGIN="https://bot.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = Client().options("/api/v1/imports/", HTTP_ORIGIN="https://bot.example",
                                 HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
    assert "POST" not in preflight.get("Access-Control-Allow-Methods", "")
    assert "Access-Control-Allow-Origin" not in Client().get("/players/", HTTP_ORIGIN="https://bot.example")


def test_past_the_limit_an_address_gets_429_with_retry_after_and_another_address_does_not(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    client = Client()
    assert [client.get("/api/v1/clubs/").status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/api/v1/clubs/")
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert "не больше 3 в минуту" in json.loads(refused.content)["detail"]
    assert client.get("/api/v1/clubs/", REMOTE_ADDR="203.0.113.9").status_code == 200
    assert client.get("/players/").status_code != 429  # the site's pages are not counted


def test_with_redis_down_the_limit_lets_requests_through_and_etags_still_work(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 2
    settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{_free_port()}/3")}
    _Outage.reset()
    try:
        client = Client()
        answers = [client.get("/api/v1/clubs/") for _ in range(4)]
        assert [a.status_code for a in answers] == [200] * 4
        assert client.get("/api/v1/clubs/", HTTP_IF_NONE_MATCH=answers[0]["ETag"]).status_code == 304
    finally:
        _Outage.reset()


def test_games_page_and_filter_by_the_day_played():
    cast = cast_in_night_one()
    other_day = cast.game.__class__.objects.exclude(pk=cast.game.pk).get()
    other_day.date = "2026-11-29"
    other_day.save(update_fields=["date"])
    client = Client()
    both = json.loads(client.get("/api/v1/games/?per_page=1").content)
    assert both["count"] == 2 and len(both["items"]) == 1 and both["per_page"] == 1
    second = json.loads(client.get("/api/v1/games/?per_page=1&page=2").content)
    assert second["items"][0]["id"] != both["items"][0]["id"]
    assert json.loads(client.get("/api/v1/games/?per_page=1&page=1000000").content)["items"] == []
    day = json.loads(client.get("/api/v1/games/?date=2026-11-29").content)
    assert [g["id"] for g in day["items"]] == [other_day.pk]
    bad = client.get("/api/v1/games/?date=вчера")
    assert bad.status_code == 422 and json.loads(bad.content)["detail"] == "date: нужна дата в виде ГГГГ-ММ-ДД"
    too_many = client.get("/api/v1/games/?per_page=500")
    assert too_many.status_code == 422 and json.loads(too_many.content)["detail"] == "per_page: не больше 100"


def test_an_unchanged_game_poll_is_answered_from_its_stamp_in_one_query(django_assert_max_num_queries):
    cast = cast_in_night_one()
    client, url = Client(), f"/api/v1/games/{cast.game.pk}/"
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    judge = Client()
    judge.force_login(cast.judge)  # another reader: his own answer (with the roles), not the anonymous one's 304
    assert judge.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    cast.game.__class__.objects.filter(pk=cast.game.pk).update(results_hidden=True)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404  # hidden now: the full path refuses it


def _wsgi(method: str, url: str, headers: dict | None = None) -> tuple[str, dict, bytes]:
    """One request through the WSGI application itself (the test client drops a HEAD answer's body on its own, so
    it could not tell whether the site sends one)."""
    path, _, query = url.partition("?")
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, **(headers or {})}
    setup_testing_defaults(environ)
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"], answer["headers"] = status, dict(response_headers)

    # keep the test's transaction and its connection (the test client disconnects the same receivers)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        result = get_wsgi_application()(environ, start_response)
        body = b"".join(result)
        result.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return answer["status"], answer["headers"], body


def test_head_answers_every_get_operation_as_its_get_without_the_body():
    cast = cast_in_night_one()
    urls = every_get_url(cast)
    assert len(urls) >= 15
    for url in urls:
        get_status, get_headers, get_body = _wsgi("GET", url)
        status, headers, body = _wsgi("HEAD", url)
        assert get_status[:3] in ("200", "404") and status == get_status and body == b"", url
        assert get_body and headers["Content-Type"] == get_headers["Content-Type"], url
        if status.startswith("200"):
            assert headers["ETag"] == get_headers["ETag"] and "Last-Modified" in headers, url
            assert headers["Content-Length"] == str(len(get_body)), url
    etag = _wsgi("GET", "/api/v1/clubs/")[1]["ETag"]
    assert _wsgi("HEAD", "/api/v1/clubs/", {"HTTP_IF_NONE_MATCH": etag})[0].startswith("304")


def test_errors_before_the_api_s_own_code_answer_its_json_shape():
    refused_nul = Client().get("/api/v1/players/?nickname=a%00b")
    assert refused_nul.status_code == 400 and refused_nul["Content-Type"].startswith("application/json")
    assert "nickname" in json.loads(refused_nul.content)["detail"]
    put = Client().put("/api/v1/clubs/")
    assert put.status_code == 405 and put["Content-Type"].startswith("application/json")
    assert put["Allow"] and put["Allow"] in json.loads(put.content)["detail"]
    nowhere = Client().get("/api/v1/no-such-thing/")
    assert nowhere.status_code == 404 and json.loads(nowhere.content) == {"detail": "Не найдено или недоступно вам."}


def test_a_body_over_the_limit_is_413_in_json_before_it_is_read(settings):
    cast = cast_in_night_one()
    key = token_for(cast, cast.club_admin)
    # A read takes the forms' limit (2.5 MB), the import its own (IMPORT_REQUEST_MAX_SIZE): both refused in JSON.
    for path, limit, said in (("/api/v1/clubs/", settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "2,5"),
                              ("/api/v1/imports/", settings.IMPORT_REQUEST_MAX_SIZE, "20,2")):
        body = json.dumps({"format": "mafclub/1", "padding": "x" * limit})
        for headers in ({}, bearer(key)):
            response = Client().post(path, body, content_type="application/json", **headers)
            assert response.status_code == 413 and response["Content-Type"].startswith("application/json")
            assert said in json.loads(response.content)["detail"]
    assert cast.game.__class__.objects.count() == 2


def test_the_page_that_shows_a_new_key_is_never_cached():
    cast = cast_in_night_one()
    admin = Client()
    admin.force_login(cast.club_admin)
    for answer in (admin.get("/staff/api-tokens/"),
                   admin.post("/staff/api-tokens/", {"name": "бот", "holder": cast.judge.pk})):
        assert answer.status_code == 200
        assert {"no-store", "private"} <= {part.strip() for part in answer["Cache-Control"].split(",")}
    assert answer.context["key"]
