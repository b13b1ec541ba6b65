"""Builders shared by the API tests: a game in its first night (roles seated, checks made) and API tokens."""

from __future__ import annotations

from api.services import token_issue
from games.live.apply import live_apply
from games.models import Game
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone


def play(game, judge, steps):
    for kind, payload in steps:
        version = Game.objects.get(pk=game.pk).version
        live_apply(game_id=game.pk, by=judge, kind=kind, payload=payload, version=version,
                   action_id=f"{kind}{version}")


def cast_in_night_one():
    """The live cast with game 1 in night 1: a kill, the don's and the sheriff's checks made."""
    cast = make_cast()
    seat_everyone(cast.game, cast.players, ROLES)
    play(cast.game, cast.judge, [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                                 ("foul", {"seat": 6, "delta": 1}), ("nominate", {"by": 2, "nominee": 4}),
                                 ("votes", {"v5": 7}), ("night", {}), ("kill", {"seat": 1}),
                                 ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 9})])
    return cast


def token_for(cast, holder, name="бот") -> str:
    _token, key = token_issue(club=cast.club, by=cast.club_admin, name=name, holder=holder)
    return key


def bearer(key: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}
