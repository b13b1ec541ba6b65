"""Who may do what in a league (docs/leagues.md). League managers manage their league's series, stars and gaining
tables — never a club's games or players; a club's admin asks to join, accepts an invitation, ends his club's
membership, and adds his club's tournaments to series of leagues his club belongs to. Superusers may do all."""

from __future__ import annotations

from club.models import Club
from club.permissions import is_club_admin
from leagues.models import League, LeagueClub, LeagueManager


def _superuser(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser)


def is_superuser(user) -> bool:
    """The site's superuser: he creates leagues (the page `/leagues/new/`, the admin)."""
    return _superuser(user)


def is_manager(user, league: League) -> bool:
    if _superuser(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return LeagueManager.objects.filter(league=league, user=user).exists()


def admin_clubs(user) -> list[Club]:
    """The clubs the user administers (all of them for a superuser)."""
    if not getattr(user, "is_authenticated", False):
        return []
    if _superuser(user):
        return list(Club.objects.order_by("name"))
    return list(Club.objects.filter(memberships__user=user, memberships__role="admin").order_by("name"))


def can_decide(user, membership: LeagueClub) -> bool:
    """Accept the other side's step: a manager a club's request, the club's admin the league's invitation."""
    if membership.status == LeagueClub.Status.REQUESTED:
        return is_manager(user, membership.league)
    if membership.status == LeagueClub.Status.INVITED:
        return is_club_admin(user, membership.club)
    return False


def can_end(user, membership: LeagueClub) -> bool:
    return is_manager(user, membership.league) or is_club_admin(user, membership.club)


def can_add_tournament(user, league: League, club: Club) -> bool:
    """Add a tournament of `club` to a series of `league` (the club a member): a manager, or the club's admin."""
    if not LeagueClub.objects.filter(league=league, club=club, status=LeagueClub.Status.ACTIVE).exists():
        return False
    return is_manager(user, league) or is_club_admin(user, club)
