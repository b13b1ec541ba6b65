"""200 pairs of judge taps sent together against a real server (gunicorn, 2 processes × 4 threads) on the suite's
database, SQLite or PostgreSQL: the phone screen's actions that name what they act on (the day and speaker, the
night, the vote, the foul count) never apply twice. Each pair is a tap and its twin (a double tap, or a retry the
phone's queue sends with the version after its predecessor), sent at the same moment: exactly one is applied, the
other is refused with a message (409 with the current state) or absorbed (200, "sent twice"); no answer is a 5xx.

The server and the request helpers are those of games/live/tests/test_concurrency.py.
"""

from __future__ import annotations

import uuid

import pytest

from games.live.tests.test_concurrency import (
    club_with_judges,
    post_action,
    session_cookie,
    site_server,
    started_games,
    together,
)
from games.models import Day, Game, GameAction, Night, Seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAMES = 10


def day_one_script() -> list[tuple[str, dict]]:
    """The taps of a first day and night as the screen sends them (20 of them, each naming its moment)."""
    taps: list[tuple[str, dict]] = [("nominate", {"day": 1, "by": 1, "nominee": 5})]
    for seat in range(1, 11):
        taps.append(("speech", {"day": 1, "seat": seat}))
        if seat == 4:
            taps += [("foul", {"seat": 3, "delta": 1, "from": 0}), ("foul", {"seat": 3, "delta": 1, "from": 1})]
        if seat == 8:
            taps += [("foul", {"seat": 3, "delta": -1, "from": 2}), ("foul", {"seat": 3, "delta": -1, "from": 1})]
    taps += [("night", {"day": 1}), ("kill", {"night": 1, "seat": 10}), ("don_check", {"night": 1, "seat": 7}),
             ("sheriff_check", {"night": 1, "seat": 2}), ("day", {"night": 1})]
    return taps


def test_two_hundred_pairs_of_twin_taps_apply_each_once_and_never_skip(tmp_path):
    club, players, judges, ruleset, tournament = club_with_judges()
    games = started_games(club, players, judges[0], ruleset, tournament, GAMES)
    cookie = session_cookie(judges[0])
    script = day_one_script()
    assert len(script) * GAMES == 200
    statuses: dict[int, int] = {}
    outcomes: dict[str, int] = {}

    with site_server(tmp_path) as site:
        for pk in games:
            version = 2
            for kind, payload in script:
                first, twin = uuid.uuid4().hex, uuid.uuid4().hex
                # The tap with the version on screen, and its twin with the version the first one would produce.
                answers = together(
                    lambda g=pk, k=kind, p=payload, v=version, a=first: post_action(site, cookie, g, k, v, a, **p),
                    lambda g=pk, k=kind, p=payload, v=version + 1, a=twin: post_action(site, cookie, g, k, v, a, **p))
                applied = 0
                for status, body in answers:
                    statuses[status] = statuses.get(status, 0) + 1
                    assert status < 500 and "Traceback" not in body, body[:1000]
                    assert 'data-testid="live-message"' in body or status == 200, body[:500]
                    if status == 409:
                        outcome = "refused (409)"
                    elif status == 200 and "sent twice" in body:
                        outcome = "absorbed"
                    else:
                        assert status == 200, (kind, payload, status, body[:500])
                        outcome = "applied"
                        applied += 1
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                assert applied == 1, (kind, payload, answers)
                version += 1
        site.pull()

    for pk in games:
        day = Day.objects.get(game_id=pk, index=1)
        assert list(day.spoken) == list(range(1, 11))  # every speech once, none skipped
        assert [(n["by"], n["nominee"]) for n in day.nominations] == [(1, 5)]
        assert Seat.objects.get(game_id=pk, number=3).fouls == 0
        night = Night.objects.get(game_id=pk, index=1)
        assert (night.kill, night.don_check, night.sheriff_check) == (10, 7, 2)
        game = Game.objects.get(pk=pk)
        assert game.phase == "D2" and game.version == 2 + len(script)
        assert GameAction.objects.filter(game_id=pk).count() == 1 + len(script)
    print(f"answers by status: {dict(sorted(statuses.items()))}; outcomes: {outcomes}")
    assert sum(statuses.values()) == 400
