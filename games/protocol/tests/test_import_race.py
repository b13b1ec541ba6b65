"""An import racing a judge's taps against a real server process (gunicorn, several workers and threads, the
harness of games/live/tests/test_concurrency.py), on the database the suite runs on (SQLite by default, PostgreSQL with
DATABASE_URL): the admin uploads an export made before the judge's first foul while the judge goes on tapping
fouls.

Every tap the judge's screen was told is saved is in the protocol and in the game's log afterwards; the import
either is refused naming the game the judge is in (games/protocol/services/import_guard.py: a game in play is never
re-written) or, when the file does not carry that game, leaves it alone; no answer is a 5xx.
"""

from __future__ import annotations

import json
import re
import threading
import urllib.error
import urllib.request
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.live.tests.test_concurrency import CSRF, OPENER, Site, post_action, session_cookie, site_server
from games.models import Game, GameAction, Seat
from games.tests.cup_fixture import make_cup

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ALIVE = (1, 5, 7, 9, 10)  # ex1 at D3: seats 2, 6, 8 voted out, 3 and 4 killed
TAPS = [(seat, 1) for seat in ALIVE] * 2  # each living seat from 0 to 2 fouls: every tap valid
UPLOADS = 4

@pytest.fixture
def cup():
    return make_cup()


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _fouls(game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("number", "fouls"))


def _upload(site: Site, cookie: str, raw: bytes) -> tuple[int, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"cup.json\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + raw + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{site.url}/games/import/", data=body, method="POST", headers={
        "Cookie": cookie, "X-CSRFToken": CSRF, "Referer": site.url + "/",
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with OPENER.open(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.parametrize("carries", ["the judges game", "another game only"])
def test_an_earlier_export_uploaded_while_a_judge_taps_fouls_loses_no_tap(tmp_path, cup, carries):
    admin = _client(cup.admin)
    response = admin.get(reverse("games:tournament_json", args=[cup.tournament.pk]))
    assert response.status_code == 200
    document = json.loads(response.content)
    if carries == "another game only":
        document["games"] = [g for g in document["games"] if g["number"] == cup.finished.number]
    raw = json.dumps(document, ensure_ascii=False).encode()
    fouls_before = _fouls(cup.playing)
    actions_before = GameAction.objects.filter(game=cup.playing).count()
    version = Game.objects.get(pk=cup.playing.pk).version
    judge_cookie, admin_cookie = session_cookie(cup.judge), session_cookie(cup.admin)

    start = threading.Barrier(2)
    acknowledged: list[str] = []
    answers: dict[str, list[tuple[int, str]]] = {"judge": [], "import": []}
    errors: list[BaseException] = []

    def judge_taps(site: Site):
        nonlocal version
        try:
            start.wait()
            for seat, delta in TAPS:
                action_id = uuid.uuid4().hex
                for _attempt in range(20):  # the screen repeats a tap refused as busy or stale, with the new version
                    status, body = post_action(site, judge_cookie, cup.playing.pk, "foul", version, action_id,
                                               seat=seat, delta=delta)
                    answers["judge"].append((status, body[:500]))
                    shown = re.search(r'data-version="(\d+)"', body)
                    if status == 200:
                        acknowledged.append(action_id)
                    if shown:
                        version = int(shown.group(1))
                    if status == 200 or status >= 500:
                        break
        except BaseException as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    def admin_uploads(site: Site):
        try:
            start.wait()
            for _upload_number in range(UPLOADS):
                answers["import"].append(_upload(site, admin_cookie, raw))
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    with site_server(tmp_path) as site:
        threads = [threading.Thread(target=judge_taps, args=(site,)),
                   threading.Thread(target=admin_uploads, args=(site,))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        site.pull()
    assert errors == []
    assert all(status < 500 and "Traceback" not in body for status, body in answers["judge"] + answers["import"]), \
        [(status, body[:300]) for status, body in answers["judge"] + answers["import"] if status >= 500]
    assert len(answers["import"]) == UPLOADS

    # every acknowledged tap is in the log and in the protocol: nothing reverted it
    assert len(acknowledged) == len(TAPS), answers["judge"]
    logged = set(GameAction.objects.filter(game=cup.playing, kind="foul").values_list("action_id", flat=True))
    assert set(acknowledged) <= logged
    assert GameAction.objects.filter(game=cup.playing).count() == actions_before + len(TAPS)
    expected = dict(fouls_before)
    for seat, delta in TAPS:
        expected[seat] += delta
    assert _fouls(cup.playing) == expected
    game = Game.objects.get(pk=cup.playing.pk)
    assert game.status == Game.Status.IN_PROGRESS and game.result == ""

    statuses = [status for status, _body in answers["import"]]
    if carries == "the judges game":  # refused every time, naming the game the judge is in
        assert statuses == [400] * UPLOADS
        assert all("game 2 (table 4, Кубок)" in body for _status, body in answers["import"])
    else:  # the other game re-written once (the file then is older than it), the judge's game left alone
        assert statuses == [302] + [400] * (UPLOADS - 1)
        for _status, body in answers["import"][1:]:
            assert "game 1 (table 3, Кубок) changed after this file was made" in body, body
            assert "game 2 (table 4" not in body
