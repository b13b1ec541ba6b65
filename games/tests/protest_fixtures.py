"""Shared set-up of the protest tests: an imported cml tournament built on docs/rules.md Ex 18, and the fixed cast."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from club.models import Club, Membership, Player
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Game, Tournament
from games.protocol.services.imports import import_documents
from games.rules.interchange import protocol_to_dict
from games.tests.rules_builders import ex1, ex18

NICKS = ["Гром", "Лиса", "Бард", "Шериф Ли", "Ворон", "Дон Кихот", "Сова", "Клык", "Рысь", "Туман"]
ENDED_AT = dt.datetime(2026, 11, 28, 19, 5, tzinfo=dt.UTC)  # "Стоп игра" of the Ex 18 game, server time
TOURNAMENT = "Осенний кубок 2026"


def _doc_game(protocol, number: int, ended_at: dt.datetime) -> dict:
    protocol = dataclasses.replace(protocol, number=number, table=1, stage="Отбор", date="2026-11-28",
                                   judge="Судья Петров", ended_at=ended_at.isoformat())
    return protocol_to_dict(protocol)


def ex18_tournament(*, club: Club | None = None, ruleset: str = "cml", ended_at: dt.datetime = ENDED_AT,
                    extra_games: bool = True) -> Tournament:
    """Game 1 is docs/rules.md Ex 18 (cml black win; seat 3 the Night-1 victim with BM 0.3 and, over the tournament,
    Ci = 1/4; seat 4 −0.3 "002 III.6/-0.3 #2"). Games 2–4 are Ex 1 red wins with Бард (seat 3 of game 1) moved to
    seat 5, a red who survives Night 1, so Бард holds 4 red cards and 1 Night-1 death: Ci 0.25."""
    names = dict(enumerate(NICKS, start=1))
    games = [_doc_game(ex18(players=names), 1, ended_at)]
    if extra_games:
        swapped = dict(names) | {3: NICKS[4], 5: NICKS[2]}
        for number in (2, 3, 4):
            games.append(_doc_game(ex1(players=swapped), number, ended_at + dt.timedelta(hours=number)))
    document = {"format": "mafclub/1", "tournament": {"name": TOURNAMENT, "ruleset": ruleset,
                                                      "difficult_roles": ["Д", "Ш"]}, "games": games}
    report = import_documents(documents=[("ex18.json", json.dumps(document, ensure_ascii=False))],
                              club=club, club_name=None if club else "Полночь")
    return report.tournaments[0]


@dataclass
class ProtestCast:
    club: Club
    tournament: Tournament
    game: Game
    anonymous: AnonymousUser
    outsider: object  # a player of the club, not at this game
    participant: object  # the player at seat 5 (the filer of Ex 18's P1)
    table_judge: object
    head_judge: object
    club_admin: object

    def __getitem__(self, name: str):
        return getattr(self, name)


def protest_cast(*, ruleset: str = "cml", ended_at: dt.datetime = ENDED_AT, extra_games: bool = True) -> ProtestCast:
    tournament = ex18_tournament(ruleset=ruleset, ended_at=ended_at, extra_games=extra_games)
    club = tournament.club
    users = {name: UserFactory(username=name, email=f"{name}@example.org")
             for name in ("outsider", "participant", "table_judge", "head_judge", "club_admin")}
    Player.objects.create(club=club, nickname="Зритель", user=users["outsider"])
    seat5 = Player.objects.get(club=club, nickname=NICKS[4])
    seat5.user = users["participant"]
    seat5.save()
    MembershipFactory(club=club, user=users["table_judge"], role=Membership.Role.JUDGE)
    MembershipFactory(club=club, user=users["head_judge"], role=Membership.Role.HEAD_JUDGE)
    MembershipFactory(club=club, user=users["club_admin"], role=Membership.Role.ADMIN)
    tournament.head_judge = users["head_judge"]
    tournament.save()
    game = Game.objects.get(tournament=tournament, number=1)
    game.judge = users["table_judge"]
    game.save()
    return ProtestCast(club=club, tournament=tournament, game=game, anonymous=AnonymousUser(), **users)


def minutes_after_end(game: Game, minutes: int, seconds: int = 0) -> dt.datetime:
    return game.ended_at + dt.timedelta(minutes=minutes, seconds=seconds)


def now_in_window(game: Game) -> dt.datetime:
    return minutes_after_end(game, 7)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


__all__ = ["NICKS", "ENDED_AT", "ex18_tournament", "protest_cast", "minutes_after_end", "now_in_window", "fresh",
           "timezone"]
