"""The fixed cast every club test talks about."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser

from club.models import Club, Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory


@dataclass
class Cast:
    club: Club
    other_club: Club
    anonymous: AnonymousUser
    player: object  # a user linked to a player of the club
    judge: object
    head_judge: object
    club_admin: object
    outsider: object  # logged in, no role, no player
    other_judge: object  # a judge of another club

    def __getitem__(self, name: str):
        return getattr(self, name)


@pytest.fixture
def cast(db) -> Cast:
    club = ClubFactory(name="Полночь")
    other_club = ClubFactory(name="Рассвет")
    player_user = UserFactory(username="player")
    PlayerFactory(club=club, nickname="Лиса", user=player_user, real_name="Алиса Лисицына")
    judge = MembershipFactory(club=club, user=UserFactory(username="judge"), role=Membership.Role.JUDGE).user
    head_judge = MembershipFactory(
        club=club, user=UserFactory(username="head_judge"), role=Membership.Role.HEAD_JUDGE
    ).user
    club_admin = MembershipFactory(club=club, user=UserFactory(username="club_admin"), role=Membership.Role.ADMIN).user
    other_judge = MembershipFactory(
        club=other_club, user=UserFactory(username="other_judge"), role=Membership.Role.JUDGE
    ).user
    return Cast(
        club=club,
        other_club=other_club,
        anonymous=AnonymousUser(),
        player=player_user,
        judge=judge,
        head_judge=head_judge,
        club_admin=club_admin,
        outsider=UserFactory(username="outsider"),
        other_judge=other_judge,
    )
