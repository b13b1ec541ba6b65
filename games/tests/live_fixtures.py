"""Shared fixtures of the live-entry tests: a club, the fixed cast and a game at a table."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.urls import reverse

from club.models import Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.models import Game, RuleSetVersion, Seat, Tournament

NICKS = ["Бендер", "Шерлок", "Ворон", "Лиса", "Маэстро", "Доцент", "Кардинал", "Сова", "Граф", "Пантера",
         "Бархат", "Тень"]
# seat -> role: blacks at 2 (Д), 5 and 9 (Ч); the sheriff at 7.
ROLES = {1: "К", 2: "Д", 3: "К", 4: "К", 5: "Ч", 6: "К", 7: "Ш", 8: "К", 9: "Ч", 10: "К"}


@dataclass
class LiveCast:
    club: object
    tournament: Tournament
    game: Game
    players: list
    outsider: object
    player: object
    judge: object  # the table judge
    other_judge: object  # a judge of the club at another table
    head_judge: object
    club_admin: object


def make_cast(slug: str = "cml") -> LiveCast:
    club = ClubFactory(name="Полночь")
    players = [PlayerFactory(club=club, nickname=n) for n in NICKS]
    player_user = UserFactory(username="player")
    players[3].user = player_user
    players[3].save()
    judge = MembershipFactory(club=club, user=UserFactory(username="judge"), role=Membership.Role.JUDGE).user
    other = MembershipFactory(club=club, user=UserFactory(username="other_judge"), role=Membership.Role.JUDGE).user
    head = UserFactory(username="head_judge")
    admin = MembershipFactory(club=club, user=UserFactory(username="club_admin"), role=Membership.Role.ADMIN).user
    ruleset = RuleSetVersion.objects.filter(slug=slug, club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset, head_judge=head)
    game = Game.objects.create(club=club, tournament=tournament, ruleset=ruleset, number=1, table=1,
                               date="2026-11-28", judge=judge, judge_name="judge")
    Game.objects.create(club=club, tournament=tournament, ruleset=ruleset, number=2, table=2,
                        date="2026-11-28", judge=other, judge_name="other_judge")
    return LiveCast(club, tournament, game, players, UserFactory(username="outsider"), player_user, judge, other,
                    head, admin)


def seat_everyone(game: Game, players, roles: dict[int, str] | None = None) -> None:
    Seat.objects.bulk_create([Seat(game=game, number=n, player=players[n - 1], role=(roles or {}).get(n, ""))
                              for n in range(1, 11)])


def act(client, game: Game, kind: str, *, htmx: bool = True, version=None, action_id=None, **payload):
    """POST one judge action with the game's current version and a fresh action id."""
    if version is None:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    data = {"version": version, "action_id": action_id or uuid.uuid4().hex, **payload}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:judge_action", args=[game.pk, kind]), data, **headers)
