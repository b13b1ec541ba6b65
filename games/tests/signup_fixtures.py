"""A club with an evening (sign-up open, `limit` places), a tournament, players with logins and the fixed cast."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils import timezone

from club.models import Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.models import ClubEvening, RuleSetVersion, Tournament
from games.tournaments.signups.models import SignupSheet


@dataclass
class SignupCast:
    club: object
    evening: ClubEvening
    tournament: Tournament
    sheet: SignupSheet
    admin: object
    head_judge: object
    judge: object
    outsider: object  # a login without a player
    users: list = field(default_factory=list)  # logins linked to players, index = player index
    players: list = field(default_factory=list)


def build_cast(*, limit: int | None = 3, players: int = 6, name: str = "Клуб «Тест»") -> SignupCast:
    club = ClubFactory(name=name)
    ruleset = RuleSetVersion.objects.filter(slug="cml", is_preset=True).first()
    evening = ClubEvening.objects.create(club=club, date=timezone.localdate(), name="Вечер пятницы", ruleset=ruleset)
    tournament = Tournament.objects.create(club=club, name="Кубок «Полночь»", ruleset=ruleset)
    now = timezone.now()
    sheet = SignupSheet.objects.create(club=club, evening=evening, starts_at=now + dt.timedelta(hours=5),
                                       place="Тверская, 7", opens_at=now - dt.timedelta(days=1),
                                       closes_at=now + dt.timedelta(hours=4),
                                       cancel_until=now + dt.timedelta(hours=2), limit=limit)
    admin = MembershipFactory(club=club, role=Membership.Role.ADMIN, user=UserFactory(username="su-admin")).user
    head = MembershipFactory(club=club, role=Membership.Role.HEAD_JUDGE, user=UserFactory(username="su-head")).user
    judge = MembershipFactory(club=club, role=Membership.Role.JUDGE, user=UserFactory(username="su-judge")).user
    cast = SignupCast(club, evening, tournament, sheet, admin, head, judge, UserFactory(username="su-outsider"))
    for index in range(players):
        user = UserFactory(username=f"su-player{index}", email=f"player{index}@example.org")
        cast.users.append(user)
        cast.players.append(PlayerFactory(club=club, nickname=f"Игрок{index:02d}", user=user))
    return cast
