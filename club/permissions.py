"""Who may do what in a club. Every view and service asks these predicates; templates only mirror them.

Superusers count as club admins everywhere; anonymous users get False (or None) everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from club.models import Club, Membership, Player

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser

Role = Membership.Role


def _roles(user: AnyUser, club: Club | None) -> set[str]:
    """The user's staff roles in the club, cached on the user object for the length of a request."""
    if club is None or not getattr(user, "is_authenticated", False):
        return set()
    cache = user.__dict__.setdefault("_club_roles", {})
    if club.pk not in cache:
        roles = Membership.objects.filter(club=club, user=cast("User", user))  # authenticated above
        cache[club.pk] = set(roles.values_list("role", flat=True))
    return cache[club.pk]


def _is_superuser(user: AnyUser) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser)


def is_club_admin(user: AnyUser, club: Club | None) -> bool:
    if _is_superuser(user):
        return True
    return Role.ADMIN in _roles(user, club)


def is_head_judge(user: AnyUser, club: Club | None) -> bool:
    if _is_superuser(user):
        return True
    return Role.HEAD_JUDGE in _roles(user, club)


def is_judge(user: AnyUser, club: Club | None) -> bool:
    """Able to judge a game: a judge, a head judge or a club admin."""
    if _is_superuser(user):
        return True
    return bool(_roles(user, club) & {Role.JUDGE, Role.HEAD_JUDGE, Role.ADMIN})


def is_club_staff(user: AnyUser, club: Club | None) -> bool:
    """Holds any staff role in the club."""
    if _is_superuser(user):
        return True
    return bool(_roles(user, club))


def player_of(user: AnyUser, club: Club | None) -> Player | None:
    """The player linked to the user's login, if any — at this club's events as anywhere: a player is a person of
    the site who may play at any club (docs/persons.md); None without a club."""
    if club is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=cast("User", user)).first()  # authenticated above


def _own_clubs(player: Player) -> list[Club]:
    """The clubs a player belongs to (his ClubMember rows; his home club is one)."""
    return list(Club.objects.filter(members__player=player).order_by("pk"))


def can_see_private(user: AnyUser, player: Player) -> bool:
    """The private part of a profile (real name, login) is for the staff of the player's own clubs (his
    memberships: a club he only visited as a guest does not see it) and the player himself."""
    if not getattr(user, "is_authenticated", False):
        return False
    if player.user_id is not None and player.user_id == user.pk:
        return True
    if _is_superuser(user):
        return True
    return any(is_club_staff(user, club) for club in _own_clubs(player))


def can_edit_player(user: AnyUser, player: Player) -> bool:
    """A player's profile (nickname, real name, city, photo, login) is his home club's to edit; another club he
    plays at edits only its own records of him. A guest without a home club is edited by the admin of a club he
    belongs to, or — with no membership at all — of a club whose games he played (the club that brought him)."""
    if _is_superuser(user):
        return True
    if player.club_id is not None:
        return is_club_admin(user, player.club)
    clubs = _own_clubs(player) or list(Club.objects.filter(games__seats__player=player).distinct().order_by("pk"))
    return any(is_club_admin(user, club) for club in clubs)


def can_change_photo(user: AnyUser, player: Player) -> bool:
    """A player's photo is changed by the player himself (his linked login) or by whoever edits his profile."""
    if not getattr(user, "is_authenticated", False):
        return False
    return (player.user_id is not None and player.user_id == user.pk) or can_edit_player(user, player)


def forget_roles(user: AnyUser) -> None:
    """Drop the per-request role cache after the user's roles changed."""
    user.__dict__.pop("_club_roles", None)
