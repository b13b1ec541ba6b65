"""The judge screen's service worker script (templates/games/live/judge_sw.js, games.live.views.judge_service_worker):
served as JavaScript from /games/ (so its scope may be a judge screen), to anyone, never from a stale copy, under
the site's Content-Security-Policy. Its behaviour in a browser: games/live/tests/test_judge_phone_offline.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tests.live_fixtures import make_cast


def test_the_worker_script_is_javascript_under_games_and_revalidated_each_time(client):
    url = reverse("games:judge_sw")
    assert url == "/games/judge-sw.js"  # a judge screen, /games/<pk>/judge/, lies under its folder
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    script = response.content.decode()
    assert 'var STATIC = "/static/";' in script
    assert "{%" not in script and "{{" not in script
    assert client.post(url).status_code == 405


@pytest.mark.django_db
def test_the_judge_screen_names_its_worker_and_its_scope(client):
    cast = make_cast()
    client.force_login(cast.judge)
    html = client.get(reverse("games:judge", args=[cast.game.pk])).content.decode()
    assert 'data-sw="/games/judge-sw.js"' in html
    assert f'data-sw-scope="/games/{cast.game.pk}/judge/"' in html
