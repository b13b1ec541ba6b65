"""A spectator who polls every public answer of a game learns nothing from the night's secret taps.

Two plays of the same night, through the judge's actions: day 1 votes out seat 7, who is the sheriff in one play
and a citizen in the other (the sheriff then sits at seat 3). The night's kill, the don's check and the sheriff's
check are secret until the morning; with the sheriff out his check is refused, so the night has one write fewer.
After each tap, every public answer — the overlay page and its poll, the spectator view and its htmx board, the
game page, the API's game, each with its body, status, ETag and Last-Modified, plain and conditional on the answer
before — is recorded. Both plays must give the same sequence, and the night's taps must change none of it.
"""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from broadcast.tests.conftest import token_for
from games.models import Game
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db

SHERIFF_OUT = ROLES  # the sheriff sits at seat 7
CITIZEN_OUT = {**ROLES, 3: "Ш", 7: "К"}  # the sheriff at seat 3, a citizen at seat 7
DAY_ONE = [("start", {}), ("speech", {}), ("nominate", {"day": 1, "by": 1, "nominee": 7}),
           ("nominate", {"day": 1, "by": 2, "nominee": 4}), ("votes", {"round": 0, "v7": 7}), ("night", {"day": 1})]
NIGHT = [("kill", {"night": 1, "seat": 1}), ("don_check", {"night": 1, "seat": 3}),
         ("sheriff_check", {"night": 1, "seat": 2})]
MORNING = [("day", {"night": 1}), ("speech", {})]
# What differs between two renders of the same page for the same visitor: the masked CSRF token, the CSP nonce.
PER_REQUEST = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|nonce="|csrf-token" content=")[^"]*')


class Rollback(Exception):
    pass


def _normal(body: bytes) -> str:
    return PER_REQUEST.sub(r"\1…", body.decode())


class Spectator:
    """Every public answer about the game, plain and conditional on the ETag this spectator was given before."""

    def __init__(self, cast, tok):
        game = cast.game.pk
        self.urls = {"overlay": reverse("broadcast:table", args=[tok.token, 1]),
                     "overlay_state": reverse("broadcast:table_state", args=[tok.token, 1]),
                     "live": reverse("games:live", args=[game]), "game": reverse("games:game_detail", args=[game]),
                     "api": f"/api/v1/games/{game}/"}
        self.client = Client()
        self.etags: dict[str, str] = {}

    def answers(self) -> dict:
        seen = {}
        for name, url in self.urls.items():
            for conditional in (False, True):
                headers = {"HTTP_IF_NONE_MATCH": self.etags[name]} if conditional and name in self.etags else {}
                response = self.client.get(url, **headers)
                seen[name, conditional] = (response.status_code, _normal(response.content), response.get("ETag"),
                                           response.get("Last-Modified"))
                if not conditional and response.get("ETag"):
                    self.etags[name] = response["ETag"]
        htmx = self.client.get(self.urls["live"], HTTP_HX_REQUEST="true")
        seen["live", "htmx"] = (htmx.status_code, _normal(htmx.content))
        return seen


def _play(cast, tok, roles, clock) -> list[dict]:
    """The night played with `roles`; the public answers before it and after each tap of it and of the morning."""
    cache.clear()  # the other play's entries carry the same versions
    clock["now"] = 1_800_000_000.0
    seat_everyone(cast.game, cast.players, roles)
    judge = Client()
    judge.force_login(cast.judge)
    for kind, payload in DAY_ONE:
        assert act(judge, cast.game, kind, **payload).status_code == 200, kind
    spectator = Spectator(cast, tok)
    sequence = [spectator.answers()]
    for kind, payload in NIGHT + MORNING:
        clock["now"] += 7  # a tap every few seconds: a stamp taken from the clock would move
        act(judge, cast.game, kind, **payload)
        sequence.append(spectator.answers())
    return sequence


def test_the_nights_secret_taps_change_no_public_answer(cast, monkeypatch):
    clock = {"now": 1_800_000_000.0}
    monkeypatch.setattr(time, "time", lambda: clock["now"])
    tok = token_for(cast)
    plays = {}
    versions = {}
    for name, roles in (("sheriff out", SHERIFF_OUT), ("citizen out", CITIZEN_OUT)):
        try:
            with transaction.atomic():
                plays[name] = _play(cast, tok, roles, clock)
                versions[name] = Game.objects.get(pk=cast.game.pk).version
                raise Rollback
        except Rollback:
            pass
    # the two nights did differ in writes: the sheriff's check of the first play was refused
    assert versions["sheriff out"] == versions["citizen out"] - 1
    sheriff_out, citizen_out = plays["sheriff out"], plays["citizen out"]
    for play in (sheriff_out, citizen_out):
        before_night = play[0]
        for step, answers in enumerate(play[1:len(NIGHT) + 1], start=1):
            for key, answer in answers.items():
                assert answer == before_night[key], f"{key} changed at the night's tap {NIGHT[step - 1][0]}"
        morning = play[len(NIGHT) + 1]
        assert morning["overlay_state", False][2] != before_night["overlay_state", False][2]  # the morning shows
    for step, (a, b) in enumerate(zip(sheriff_out, citizen_out, strict=True)):
        for key in a:
            assert a[key] == b[key], f"{key} differs after tap {step}"


def test_a_hidden_rounds_game_answers_the_same_to_the_public_whatever_the_judge_taps(cast, monkeypatch):
    clock = {"now": 1_800_000_000.0}
    monkeypatch.setattr(time, "time", lambda: clock["now"])
    Game.objects.filter(pk=cast.game.pk).update(results_hidden=True)
    seat_everyone(cast.game, cast.players, CITIZEN_OUT)
    judge = Client()
    judge.force_login(cast.judge)
    spectator = Spectator(cast, token_for(cast))
    assert act(judge, cast.game, "start").status_code == 200  # the game page dates the game by its start
    first = spectator.answers()
    assert 'data-testid="ov-hidden"' in first["overlay_state", False][1]
    for kind, payload in DAY_ONE[1:] + NIGHT + MORNING:
        clock["now"] += 7
        assert act(judge, cast.game, kind, **payload).status_code == 200, kind
        assert spectator.answers() == first, kind
