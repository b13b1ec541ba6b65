"""One judge tap reads the protocol once: the handler's read is passed on to the screen, which reads again only
the parts the tap wrote (and the scores); the board it answers with is the board a fresh page load shows."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db

PROTOCOL_TABLES = ("games_seat", "games_day", "games_night", "games_removal", "games_recordedcolour",
                   "games_judgeextra", "games_adjustment")


def reads(queries) -> Counter:
    """SELECTs per table they read from (the first FROM)."""
    found: Counter = Counter()
    for query in queries:
        match = re.match(r'\s*SELECT .*? FROM "?(\w+)"?', query["sql"], re.S | re.I)
        if match:
            found[match.group(1)] += 1
    return found


@pytest.fixture
def playing(live, client):
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    return live.game


def test_a_nomination_reads_each_protocol_table_once_and_the_written_day_again(playing, client):
    version = Game.objects.values_list("version", flat=True).get(pk=playing.pk)
    with CaptureQueriesContext(connection) as captured:
        response = act(client, playing, "nominate", version=version, by=1, nominee=5)
    assert response.status_code == 200 and "Seat 1 nominates seat 5." in response.content.decode()
    counts = reads(captured.captured_queries)
    # the handler's read, passed on to the screen: 8 of the 16 reads before (each table twice)
    assert {t: counts[t] for t in PROTOCOL_TABLES} == {
        "games_seat": 1, "games_day": 2, "games_night": 1, "games_removal": 1, "games_recordedcolour": 1,
        "games_judgeextra": 1, "games_adjustment": 1}
    # 32 before; and the club's row (its time zone) a per-process cache reads on every request (club.cache)
    assert len(captured.captured_queries) <= 24


def _board(html: str) -> str:
    """The board without what differs between two renderings: the fresh action id and the tap's message."""
    html = re.sub(r'name="(action_id|csrfmiddlewaretoken)" value="\w+"', "", html)
    html = re.sub(r'<div class="alert [^>]*data-testid="live-message">.*?</div>', "", html, count=1, flags=re.S)
    return re.sub(r'data-testid="consequence-\d+">.*?</div>', "", html)


TAPS = [
    ("nominate", {"by": 1, "nominee": 5}), ("foul", {"seat": 2}), ("foul", {"seat": 2}), ("foul", {"seat": 2}),
    ("speech", {}), ("speech", {}), ("undo", {}), ("speech", {}), ("nominate", {"by": 3, "nominee": 9}),
    *[("speech", {})] * 9, ("votes", {"v5": "6", "v9": ""}), ("night", {}), ("kill", {"seat": 4}),
    ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 2}), ("best_move", {"seats": "2 9"}), ("day", {}),
    ("remove", {"seat": 3, "reason": "disqualified", "note": "II.2"}), ("undo", {}),
    ("extra", {"seat": 1, "points": "0.3", "note": "x"}),
    ("adjustment", {"seat": 6, "points": "-0.3", "clause": "002 III.6", "note": "y"}),
]


def test_the_board_a_tap_answers_with_is_the_board_a_fresh_load_shows(playing, client):
    url = reverse("games:judge", args=[playing.pk])
    for kind, payload in TAPS:
        response = act(client, playing, kind, **payload)
        assert response.status_code in (200, 422), (kind, response.content.decode()[:300])
        if response["HX-Retarget"] != "#board":
            continue  # a foul's own cell
        fresh = client.get(url, HTTP_HX_REQUEST="true")
        assert _board(response.content.decode()) == _board(fresh.content.decode()), kind
