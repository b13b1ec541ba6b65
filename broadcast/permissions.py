"""Who manages an event's overlay tokens: the organiser (a club admin, or the tournament's head judge)."""

from __future__ import annotations

from club.permissions import is_club_admin
from games.models import Tournament


def can_manage_overlays(user, event) -> bool:
    """A club admin of the event's club; for a tournament also its head judge (as for its schedule)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_club_admin(user, event.club):
        return True
    return isinstance(event, Tournament) and event.head_judge_id == user.pk
