"""Each predicate over the fixed cast, one row per member."""

import pytest

from club import permissions
from club.models import Player
from club.tests.factories import UserFactory

CAST = ["anonymous", "player", "judge", "head_judge", "club_admin", "outsider", "other_judge"]

# member → (is_club_admin, is_judge, is_head_judge, is_club_staff) in the cast's club
EXPECTED = {
    "anonymous": (False, False, False, False),
    "player": (False, False, False, False),
    "judge": (False, True, False, True),
    "head_judge": (False, True, True, True),
    "club_admin": (True, True, False, True),
    "outsider": (False, False, False, False),
    "other_judge": (False, False, False, False),
}

# member → may see the private part of the profile of the cast's linked player
SEES_PRIVATE = {
    "anonymous": False,
    "player": True,
    "judge": True,
    "head_judge": True,
    "club_admin": True,
    "outsider": False,
    "other_judge": False,
}


@pytest.mark.parametrize("member", CAST)
def test_role_predicates_in_the_club(cast, member):
    user = cast[member]
    got = (
        permissions.is_club_admin(user, cast.club),
        permissions.is_judge(user, cast.club),
        permissions.is_head_judge(user, cast.club),
        permissions.is_club_staff(user, cast.club),
    )
    assert got == EXPECTED[member]


@pytest.mark.parametrize("member", CAST)
def test_only_the_other_judge_has_a_role_in_the_other_club(cast, member):
    user = cast[member]
    assert permissions.is_judge(user, cast.other_club) == (member == "other_judge")
    assert permissions.is_club_staff(user, cast.other_club) == (member == "other_judge")
    assert permissions.is_club_admin(user, cast.other_club) is False


@pytest.mark.parametrize("member", CAST)
def test_player_of_returns_only_the_linked_player(cast, member):
    player = permissions.player_of(cast[member], cast.club)
    if member == "player":
        assert player is not None and player.nickname == "Лиса"
    else:
        assert player is None
    # one person at every club's events (docs/persons.md): the same player at another club's
    assert permissions.player_of(cast[member], cast.other_club) == player


@pytest.mark.parametrize("member", CAST)
def test_private_part_is_for_staff_and_the_player_himself(cast, member):
    linked = Player.objects.get(user=cast.player)
    assert permissions.can_see_private(cast[member], linked) is SEES_PRIVATE[member]


def test_a_player_does_not_see_the_private_part_of_another_player(cast):
    from club.tests.factories import PlayerFactory

    stranger = PlayerFactory(club=cast.club, nickname="Ворон")
    assert permissions.can_see_private(cast.player, stranger) is False
    assert permissions.can_see_private(cast.judge, stranger) is True


def test_a_superuser_counts_as_admin_of_every_club(cast):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    for club in (cast.club, cast.other_club):
        assert permissions.is_club_admin(root, club)
        assert permissions.is_judge(root, club)
        assert permissions.is_head_judge(root, club)
        assert permissions.is_club_staff(root, club)


def test_no_club_means_no_role(cast):
    assert permissions.is_club_admin(cast.club_admin, None) is False
    assert permissions.player_of(cast.player, None) is None
