"""Malformed judge actions get a 4xx naming the field, no traceback, and the database unchanged — the same answer
on SQLite and PostgreSQL (non-numeric ids, a reused action id, NUL characters)."""

import pytest
from django.urls import reverse

from games.live.apply import live_apply
from games.live.base import ActionRefused
from games.models import Adjustment, Game, GameAction, Seat
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def snapshot(game):
    """Everything a judge action may write, for "the database is unchanged"."""
    game = Game.objects.get(pk=game.pk)
    return (game.version, game.status, game.phase, game.result,
            sorted(Seat.objects.filter(game=game).values_list("number", "player_id", "role", "fouls")),
            sorted(Adjustment.objects.filter(game=game).values_list("id", "seat", "points", "note")),
            sorted(GameAction.objects.filter(game=game).values_list("seq", "action_id", "kind", "undone")),
            sorted(game.club.players.values_list("id", "nickname")))


@pytest.fixture
def draft(live, client):
    client.force_login(live.judge)
    return live.game


@pytest.fixture
def finished(live, client):
    """A game in progress with one judge adjustment (its id is the target of adjustment_delete)."""
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    assert act(client, live.game, "adjustment", seat=3, points="-0.3", clause="002 III.6", note="x").status_code == 200
    return live.game


def assert_refused(response, field: str, status: int = 422):
    body = response.content.decode()
    assert response.status_code == status, body[:500]
    assert field in body and "Traceback" not in body


@pytest.mark.parametrize("player_id", ["abc", "1.5", "1e20", "-3", "99999999999999999999999", " "])
def test_seat_with_a_malformed_player_id(draft, client, player_id):
    before = snapshot(draft)
    response = act(client, draft, "seat", seat=1, player_id=player_id)
    if player_id.strip():
        assert_refused(response, "player_id", status=400)  # a value that breaks its field's rule
    else:  # blank: not a number either (the screen sends no player_id at all when the nickname is typed)
        assert_refused(response, "player_id", status=400)
    assert snapshot(draft) == before


@pytest.mark.parametrize("value", ["abc", "1.5", "", "0", "99999999999999999999999"])
def test_adjustment_delete_with_a_malformed_id(finished, client, value):
    before = snapshot(finished)
    assert_refused(act(client, finished, "adjustment_delete", id=value), "id", status=400)
    assert snapshot(finished) == before


def test_an_action_id_reused_with_the_current_version_is_refused(finished, client):
    used = GameAction.objects.filter(game=finished).order_by("-seq").first().action_id
    before = snapshot(finished)
    response = act(client, finished, "foul", seat=4, delta=1, action_id=used)
    assert_refused(response, "action_id")
    assert "already used" in response.content.decode()
    assert snapshot(finished) == before
    # A true retry (the version it was first sent with) is still answered "already saved".
    retry = act(client, finished, "adjustment", seat=3, points="-0.3", clause="002 III.6", note="x",
                version=Game.objects.get(pk=finished.pk).version - 1, action_id=used)
    assert retry.status_code == 200 and "Already saved" in retry.content.decode()
    assert snapshot(finished) == before


@pytest.mark.parametrize("kind, payload, field", [
    ("seat", {"seat": "1", "nickname": "Ни\x00к", "create": "1"}, "nickname"),
    ("seat", {"seat": "1\x00", "nickname": "Ник", "create": "1"}, "seat"),
])
def test_nul_in_a_draft_field_is_refused_by_the_site_and_by_the_service(draft, client, live, kind, payload,
                                                                         field):
    before = snapshot(draft)
    assert_refused(act(client, draft, kind, **payload), field, status=400)
    with pytest.raises(ActionRefused, match=field):
        live_apply(game_id=draft.pk, by=live.judge, kind=kind, payload=payload, version=draft.version,
                   action_id="nul-test")
    assert snapshot(draft) == before


@pytest.mark.parametrize("payload, action_id, field", [
    ({"seat": "3", "points": "-0.3", "clause": "002 III.6", "note": "no\x00te"}, None, "note"),
    ({"seat": "3", "points": "-0.3", "clause": "002\x00", "note": ""}, None, "clause"),
    ({"seat": "3", "points": "-0.3", "clause": "002 III.6", "note": ""}, "id\x00x", "action_id"),
])
def test_nul_in_a_note_or_the_action_id_is_refused(finished, client, live, payload, action_id, field):
    before = snapshot(finished)
    assert_refused(act(client, finished, "adjustment", action_id=action_id, **payload), field, status=400)
    version = Game.objects.get(pk=finished.pk).version
    with pytest.raises(ActionRefused, match=field):
        live_apply(game_id=finished.pk, by=live.judge, kind="adjustment", payload=payload, version=version,
                   action_id=action_id or "nul-test")
    assert snapshot(finished) == before


def test_nul_anywhere_on_the_site_is_a_400_naming_the_field(client, db):
    response = client.get(reverse("games:tournament_list"), {"q": "a\x00b"})
    assert response.status_code == 400 and "q" in response.content.decode()
    assert response["Content-Type"].startswith("text/plain")
    response = client.post(reverse("login"), {"username": "x\x00", "password": "y"})
    assert response.status_code == 400 and "username" in response.content.decode()



# The moment a tap names (games/live/targets.py) is read with the rest of the payload, typed: a bad value is a 400
# naming the field, nothing stored — for each of the ten actions that name one.
@pytest.mark.parametrize("kind, payload, field", [
    ("speech", {"day": "one", "seat": "1"}, "day"),
    ("speech", {"day": "1", "seat": "x"}, "seat"),
    ("nominate", {"by": "1", "nominee": "2", "day": "D1"}, "day"),
    ("votes", {"v2": "5", "round": "first"}, "round"),
    ("lift", {"hands": "3", "day": "1.5"}, "day"),
    ("night", {"day": "?"}, "day"),
    ("kill", {"seat": "2", "night": "N1"}, "night"),
    ("don_check", {"seat": "2", "night": "x"}, "night"),
    ("sheriff_check", {"seat": "2", "night": "1e3"}, "night"),
    ("day", {"night": "one"}, "night"),
    ("undo", {"seq": "last"}, "seq"),
])
def test_a_bad_moment_is_a_400_naming_the_field(finished, client, live, kind, payload, field):
    before = snapshot(finished)
    response = act(client, finished, kind, **payload)
    assert_refused(response, f"{field}: enter a number", status=400)
    assert snapshot(finished) == before
    with pytest.raises(ActionRefused, match=f"{field}: enter a number"):
        live_apply(game_id=finished.pk, by=live.judge, kind=kind, payload=payload,
                   version=Game.objects.get(pk=finished.pk).version, action_id="moment-test")
    assert snapshot(finished) == before
