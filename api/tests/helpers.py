"""Builders shared by the API tests: a game in its first night (roles seated, checks made), two clubs with a
staff member in both and the superuser, and API tokens."""

from __future__ import annotations

from dataclasses import dataclass

from api.services import token_issue
from club.models import Club, Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.live.apply import live_apply
from games.models import Game, Tournament
from games.tests.live_fixtures import NICKS, ROLES, LiveCast, make_cast, seat_everyone
from games.tournaments.services import results_hide


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


@dataclass
class TwoClubs:
    """Club A (the live cast's «Полночь», game 1 in night 1, game 2 in a hidden round) and club B («Рассвет»: a game
    in night 1 judged by `dual`, a game of a hidden round, a published schedule), with `dual` — the admin of A and a
    judge in B — and the site's superuser, who holds no role in either."""

    cast: LiveCast
    hidden_a: Game
    club_b: Club
    tournament_b: Tournament
    playing_b: Game
    hidden_b: Game
    dual: object
    superuser: object


def _hide_from_round_3(game: Game, by) -> None:
    Game.objects.filter(pk=game.pk).update(round=3)
    results_hide(tournament=game.tournament, by=by, from_round=3)


def two_clubs() -> TwoClubs:
    cast = cast_in_night_one()
    superuser = UserFactory(username="root", is_superuser=True, is_staff=True)
    dual = UserFactory(username="dual")
    MembershipFactory(club=cast.club, user=dual, role=Membership.Role.ADMIN)
    club_b = ClubFactory(name="Рассвет")
    MembershipFactory(club=club_b, user=dual, role=Membership.Role.JUDGE)
    players_b = [PlayerFactory(club=club_b, nickname=f"{n}-Б") for n in NICKS[:10]]
    tournament_b = Tournament.objects.create(club=club_b, name="Кубок рассвета", ruleset=cast.tournament.ruleset,
                                             seating_published=True)
    playing_b = Game.objects.create(club=club_b, tournament=tournament_b, ruleset=cast.tournament.ruleset, number=1,
                                    table=1, round=1, date="2026-11-28", judge=dual, judge_name="dual")
    seat_everyone(playing_b, players_b, ROLES)
    play(playing_b, dual, [("start", {}), ("speech", {}), ("night", {}), ("kill", {"seat": 1}),
                           ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 9})])
    hidden_b = Game.objects.create(club=club_b, tournament=tournament_b, ruleset=cast.tournament.ruleset, number=2,
                                   table=1, date="2026-11-29", judge_name="judge")
    seat_everyone(hidden_b, players_b, ROLES)
    _hide_from_round_3(hidden_b, superuser)
    hidden_a = Game.objects.exclude(pk=cast.game.pk).get(club=cast.club)
    _hide_from_round_3(hidden_a, cast.club_admin)
    return TwoClubs(cast, Game.objects.get(pk=hidden_a.pk), club_b, tournament_b, playing_b,
                    Game.objects.get(pk=hidden_b.pk), dual, superuser)


def token_in(club, *, by, holder, name="бот") -> str:
    return token_issue(club=club, by=by, name=name, holder=holder)[1]
