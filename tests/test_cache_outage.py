"""A Redis that is down or does not answer: every page is computed and served, never a 500 (club/cache.py).

The cache is pointed at a port where nothing listens (refused at once) and at a socket that accepts and never
answers (the socket timeout); the rating pages, which keep their tables in the cache, and every other page of the
demo club answer as with a working cache, and the outage is logged once, not once per cache call.
"""

from __future__ import annotations

import logging
import socket
import time

import pytest
from django.test import Client
from django.urls import reverse

from club.cache import _Outage
from club.settings import cache_config
from tests.site_walk import site_urls
from tests.test_production import _free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def silent_server():
    """A socket that takes connections into its backlog and never answers a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    yield server.getsockname()[1]
    server.close()


@pytest.fixture(autouse=True)
def _fresh_outage():
    _Outage.reset()
    yield
    _Outage.reset()


def _rating_pages(scene) -> list[str]:
    player, tournament = scene.ids["player"][0], scene.ids["tournament"][0]
    return [reverse("ratings:club_rating"), reverse("ratings:club_stats"), reverse("ratings:club_elo"),
            reverse("player_detail", args=[player]),
            reverse("ratings:tournament_standings", args=[tournament]),
            reverse("ratings:tournament_standings_json", args=[tournament]), reverse("home")]


def test_with_redis_refusing_connections_every_page_is_served_and_the_outage_is_logged_once(
        scene, settings, caplog):
    settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{_free_port()}/3")}
    client = Client()
    with caplog.at_level(logging.WARNING, logger="club.cache"):
        for path in _rating_pages(scene):
            response = client.get(path)
            assert response.status_code == 200, path
            assert response.content, path
        pages, _unfilled = site_urls(scene)
        for name, path in pages:
            assert client.get(path).status_code < 500, (name, path)
    warnings = [r for r in caplog.records if r.name == "club.cache"]
    assert len(warnings) == 1 and "does not answer" in warnings[0].getMessage(), warnings


def test_a_redis_that_never_answers_costs_one_short_timeout_not_one_per_call(scene, settings, silent_server):
    settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{silent_server}/3")}
    client = Client()
    started = time.monotonic()
    for path in _rating_pages(scene):
        assert client.get(path).status_code == 200, path
    # one socket timeout (0.5 s), then the server is left alone for a few seconds; without the timeouts each
    # call would hang for the socket's default (for ever)
    assert time.monotonic() - started < 8


def test_the_cache_recovers_once_redis_answers_again(scene, settings):
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, db=3, socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError as error:
        pytest.skip(f"no Redis on 127.0.0.1:6379: {error}")
    settings.CACHES = {"default": {**cache_config("redis://127.0.0.1:6379/3"), "KEY_PREFIX": "mafclub-web-outage"}}
    from django.core.cache import cache

    _Outage.paused_until = time.monotonic() - 1  # an outage that is over
    cache.set("probe", 1, 30)
    assert cache.get("probe") == 1
    cache.delete("probe")


def test_the_outage_is_warned_about_at_most_once_a_minute(settings, caplog, monkeypatch):
    import club.cache

    settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{_free_port()}/3")}
    from django.core.cache import cache

    now = [1000.0]
    monkeypatch.setattr(club.cache.time, "monotonic", lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="club.cache"):
        for step in range(0, 130, 6):  # a call every 6 s for a bit over two minutes (past each 5 s pause)
            now[0] = 1000.0 + step
            assert cache.get("standings") is None
    warned = [r for r in caplog.records if r.name == "club.cache"]
    assert len(warned) == 3, [r.getMessage() for r in warned]  # at 0 s, 60 s and 120 s


def test_password_reset_still_works_with_the_cache_down(settings, django_user_model):
    from django.core import mail

    settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{_free_port()}/3")}
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    django_user_model.objects.create_user("lisa", email="lisa@example.org", password="old-password-2026")
    response = Client().post(reverse("password_reset"), {"email": "lisa@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
