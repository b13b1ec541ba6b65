"""No role and no night check of a game in play reaches anyone through any endpoint of the API: anonymous, a player
of the game, a token holder and the club's other judge (staff) alike. The table judge's own token does see them, as
his screen does, so the walk can tell a leak from an answer."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from api.endpoints import api
from api.tests.helpers import bearer, cast_in_night_one, token_for

pytestmark = pytest.mark.django_db

ROLE_KEYS = re.compile(r'"(role|don_check|sheriff_check|don_found_sheriff|sheriff_found_black)":\s*("[^"]+"|\d+|true)')
ROLE_LETTER = re.compile(r'"[КЧШД]"')


def every_get_url(cast) -> list[str]:
    """Every GET operation of the schema, its path parameters filled with the cast's objects."""
    game = cast.game
    ids = {"club_id": cast.club.pk, "player_id": cast.players[0].pk, "season_id": 1,
           "tournament_id": cast.tournament.pk, "game_id": game.pk}
    urls = []
    schema = api.get_openapi_schema()
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        url = path
        for name, value in ids.items():
            url = url.replace("{" + name + "}", str(value))
        assert "{" not in url, f"the secrecy walk cannot fill {path}"
        urls.append(url)
        if url == "/api/v1/games/":
            urls += [f"{url}?tournament={cast.tournament.pk}", f"{url}?date={game.date}"]
        if url == "/api/v1/protests/":
            urls.append(f"{url}?game={game.pk}")
    return urls


def leaks(client, urls, headers) -> list[str]:
    found = []
    for url in urls:
        response = client.get(url, **headers)
        assert response.status_code < 500, url
        text = response.content.decode()
        if response.status_code == 200 and (ROLE_KEYS.search(text) or ROLE_LETTER.search(text)):
            found.append(url)
    return found


def test_no_endpoint_shows_a_role_or_check_of_a_game_in_play_to_anyone_but_its_judges():
    cast = cast_in_night_one()
    urls = every_get_url(cast)
    assert len(urls) >= 15
    readers = {
        "anonymous": (Client(), {}),
        "the game's player (logged in)": (Client(), {}),
        "the other table's judge (staff)": (Client(), {}),
        "a token of the other judge": (Client(), bearer(token_for(cast, cast.other_judge))),
        "an outsider (logged in)": (Client(), {}),
    }
    readers["the game's player (logged in)"][0].force_login(cast.player)
    readers["the other table's judge (staff)"][0].force_login(cast.other_judge)
    readers["an outsider (logged in)"][0].force_login(cast.outsider)
    for who, (client, headers) in readers.items():
        assert leaks(client, urls, headers) == [], who
    # the table judge's own token reads the roles: the walk sees them when they are there
    judge_token = bearer(token_for(cast, cast.judge, name="судья"))
    assert f"/api/v1/games/{cast.game.pk}/" in leaks(Client(), urls, judge_token)


def test_during_play_the_game_shows_the_spectator_facts_only():
    cast = cast_in_night_one()
    data = json.loads(Client().get(f"/api/v1/games/{cast.game.pk}/").content)
    assert data["status"] == "in_progress" and data["secrets_shown"] is False
    assert data["result"] is None and data["protocol"] is None
    assert {s["role"] for s in data["seats"]} == {None}
    assert next(s for s in data["seats"] if s["seat"] == 6)["fouls"] == 1
    assert data["days"][0]["nominations"][0] == {"by": 1, "nominee": 5, "withdrawn": False}
    # the night being played is announced in the morning: its kill is not shown yet
    assert data["nights"] == [{"index": 1, "kill": None, "announced": False, "don_check": None,
                               "don_found_sheriff": None, "sheriff_check": None, "sheriff_found_black": None}]
