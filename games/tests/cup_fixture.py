"""A tournament of two games for the import tests: game 1 finished at table 3, game 2 in play at table 4 (Day 3),
both of the same ten players, scored."""

from __future__ import annotations

import dataclasses

from club.models import Membership, nickname_key
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.models import Game, RuleSetVersion, Tournament
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.tests.live_fixtures import NICKS
from games.tests.rules_builders import ex1, ex18

Cup = dataclasses.make_dataclass("Cup", ["club", "tournament", "finished", "playing", "judge", "admin", "names"])


def make_cup() -> Cup:
    club = ClubFactory(name="Полночь")
    players = [PlayerFactory(club=club, nickname=n) for n in NICKS[:10]]
    judge = MembershipFactory(club=club, user=UserFactory(username="judge"), role=Membership.Role.JUDGE).user
    admin = MembershipFactory(club=club, user=UserFactory(username="admin"), role=Membership.Role.ADMIN).user
    ruleset = RuleSetVersion.objects.filter(slug="cml", club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset)
    names = dict(enumerate(NICKS[:10], start=1))
    by_key = {nickname_key(p.nickname): p for p in players}
    finished = Game(club=club, tournament=tournament, ruleset=ruleset, number=1, table=3, date="2026-11-28",
                    judge=judge, judge_name="judge", status=Game.Status.FINISHED)
    write_protocol(game=finished, protocol=ex18(players=names), players=by_key, fresh=True)
    playing = Game(club=club, tournament=tournament, ruleset=ruleset, number=2, table=4, date="2026-11-28",
                   judge=judge, judge_name="judge", status=Game.Status.IN_PROGRESS, phase="D3")
    write_protocol(game=playing, protocol=dataclasses.replace(ex1(players=names), result=None), players=by_key,
                   fresh=True)
    score_games(tournament=tournament)
    return Cup(club, tournament, finished, playing, judge, admin, names)
