"""Fixtures of the games tests (helpers that are not fixtures stay in live_fixtures.py and protest_fixtures.py)."""

import json

import pytest
from django.utils import translation

from games.models import Game
from games.protocol.services.imports import import_documents
from games.tests.live_fixtures import LiveCast, make_cast
from games.tests.sheet_builders import TOURNAMENT, sheet_game


@pytest.fixture(autouse=True)
def _site_language():
    """Every test starts in the site's language: a request an earlier test made with another language (the
    LocaleMiddleware's cookie) leaves that language active in the thread, and a service's message read next would
    come in it."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def live(db, english) -> LiveCast:
    """The live-entry cast (club, players, judges, a game at table 1) with English messages."""
    return make_cast()


@pytest.fixture
def games(monkeypatch):
    # Only the protocols matter here: keep the ratings' cache hook (another app, in flux) out of these tests.
    monkeypatch.setattr("games.protocol.services.scoring._scores_changed", lambda games: None)
    document = {"format": "mafclub/1", "tournament": {"name": TOURNAMENT, "ruleset": "cml"},
                "games": [sheet_game(1, result="red", table=1), sheet_game(2, result=None, table=2)]}
    report = import_documents(documents=[("sheets.json", json.dumps(document, ensure_ascii=False))],
                              club_name="Клуб Полночь")
    finished = Game.objects.get(tournament=report.tournaments[0], number=1)
    unfinished = Game.objects.get(tournament=report.tournaments[0], number=2)
    assert finished.is_finished and not unfinished.is_finished
    return finished, unfinished
