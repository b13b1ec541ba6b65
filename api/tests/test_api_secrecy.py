"""No role and no night check of a game in play reaches anyone through any endpoint of the API: anonymous, a player
of the game, a token holder and the club's other judge (staff) alike. The table judge's own token does see them, as
his screen does, so the walk can tell a leak from an answer.

Tokens read their own club only: walked over every endpoint with another club's objects (its game in play, its
hidden round), the token of a staff member of both clubs and the superuser's token read exactly what an anonymous
reader does, while the same people logged in on the site read more."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from api.endpoints import api
from api.keys import key_hash
from api.models import ApiToken
from api.tests.helpers import bearer, cast_in_night_one, token_for, token_in, two_clubs

pytestmark = pytest.mark.django_db

ROLE_KEYS = re.compile(r'"(role|don_check|sheriff_check|don_found_sheriff|sheriff_found_black)":\s*("[^"]+"|\d+|true)')
ROLE_LETTER = re.compile(r'"[КЧШД]"')


def every_get_url(cast) -> list[str]:
    """Every GET operation of the schema, its path parameters filled with the cast's objects."""
    game = cast.game
    ids = {"club_id": cast.club.pk, "player_id": cast.players[0].pk, "season_id": 1,
           "tournament_id": cast.tournament.pk, "game_id": game.pk,
           "series_id": 1}  # a series that does not exist: the walk asserts no 500 and no leak
    urls = _filled(ids)
    for url in list(urls):
        if url == "/api/v1/games/":
            urls += [f"{url}?tournament={cast.tournament.pk}", f"{url}?date={game.date}"]
        if url == "/api/v1/protests/":
            urls.append(f"{url}?game={game.pk}")
    return urls


def _filled(ids: dict[str, int]) -> list[str]:
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


def other_club_urls(world) -> list[str]:
    """Every GET operation filled with club B's objects, each list narrowed to club B (its game in play, its hidden
    game, its tournament with a hidden round)."""
    b = world.club_b
    urls = []
    for game in (world.playing_b, world.hidden_b):
        ids = {"club_id": b.pk, "player_id": game.seats.first().player_id, "season_id": 1,
               "tournament_id": world.tournament_b.pk, "game_id": game.pk, "series_id": 1}
        urls += [url for url in _filled(ids) if url not in urls]
    lists = {"/api/v1/players/", "/api/v1/seasons/", "/api/v1/tournaments/", "/api/v1/games/", "/api/v1/signups/"}
    urls = [f"{url}?club={b.pk}" if url in lists else url for url in urls]
    return urls + [f"/api/v1/games/?tournament={world.tournament_b.pk}", "/api/v1/games/?date=2026-11-29",
                   f"/api/v1/protests/?tournament={world.tournament_b.pk}",
                   f"/api/v1/protests/?game={world.hidden_b.pk}", f"/api/v1/protests/?game={world.playing_b.pk}"]


def legacy_token(club, *, by, holder) -> str:
    """A token stored as issuing did before it refused a holder with powers the issuer lacks."""
    key = "mc_issued-before-the-holder-rule"
    ApiToken.objects.create(club=club, name="старый", holder=holder, key_hash=key_hash(key), prefix=key[:10],
                            created_by=by)
    return key


def _answers(client, urls, headers) -> dict[str, tuple[int, object]]:
    found = {}
    for url in urls:
        response = client.get(url, **headers)
        assert response.status_code < 500, url
        found[url] = (response.status_code, json.loads(response.content))
    return found


def test_tokens_of_a_two_club_staff_member_and_the_superuser_read_another_club_as_anonymous_does():
    world = two_clubs()
    cast = world.cast
    urls = other_club_urls(world)
    assert len(urls) >= 20
    anonymous = _answers(Client(), urls, {})
    assert anonymous[f"/api/v1/games/{world.hidden_b.pk}/"][0] == 404
    tokens = {"A admin + B judge (B's table judge)": token_in(cast.club, by=cast.club_admin, holder=world.dual),
              "the superuser": token_in(cast.club, by=world.superuser, holder=world.superuser),
              "the superuser's, issued by A's admin before the rule": legacy_token(cast.club, by=cast.club_admin,
                                                                                   holder=world.superuser)}
    for who, key in tokens.items():
        assert _answers(Client(), urls, bearer(key)) == anonymous, who
        assert leaks(Client(), urls, bearer(key)) == [], who
    # the walk sees B's secrets where they are shown: the same two people on the site's session
    for user in (world.dual, world.superuser):
        session = Client()
        session.force_login(user)
        shown = _answers(session, urls, {})
        assert shown[f"/api/v1/games/{world.hidden_b.pk}/"][0] == 200
        assert f"/api/v1/games/{world.playing_b.pk}/" in leaks(session, urls, {})


def test_a_guests_card_and_answers_keep_the_secrets_of_a_game_in_play():
    """One person, many clubs: a guest without a home club sits in the game in play; his API answers and his one
    card (the games at every club) show nothing of it to anyone but its judges."""
    from club.models import ClubMember, Player

    cast = cast_in_night_one()
    guest = cast.game.seats.get(number=1).player
    Player.objects.filter(pk=guest.pk).update(club=None)
    ClubMember.objects.filter(player=guest).delete()
    urls = [url.replace(f"/players/{cast.players[0].pk}/", f"/players/{guest.pk}/") for url in every_get_url(cast)]
    assert f"/api/v1/players/{guest.pk}/" in urls
    outsider = Client()
    outsider.force_login(cast.outsider)
    for client in (Client(), outsider):
        assert leaks(client, urls, {}) == []
        card = client.get(f"/players/{guest.pk}/?everywhere=1").content.decode()
        everywhere = card.split('data-testid="games-everywhere"', 1)[1]
        assert f'href="/games/{cast.game.pk}/"' not in everywhere  # the game in play is on no card yet
    data = json.loads(Client().get(f"/api/v1/players/{guest.pk}/").content)
    assert data["club_id"] is None and data["clubs"] == [] and data["all_games"]["games"] == 0
    seat = next(s for s in json.loads(Client().get(f"/api/v1/games/{cast.game.pk}/").content)["seats"]
                if s["seat"] == 1)
    assert seat["club"] is None and seat["role"] is None
