"""Who may do what with a sign-up. Services ask these on every write; templates only mirror them."""

from __future__ import annotations

from club.permissions import is_club_admin, is_head_judge, player_of
from games.tournaments.signups.models import SignupSheet


def can_organise_event(user, event) -> bool:
    """The organiser of an event's sign-up: a club admin; for a tournament also its head judge, for a club evening
    the club's head judge."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_club_admin(user, event.club):
        return True
    head_judge_id = getattr(event, "head_judge_id", None)
    if head_judge_id is not None:
        return head_judge_id == user.pk
    return is_head_judge(user, event.club)


def can_organise(user, sheet: SignupSheet) -> bool:
    return can_organise_event(user, sheet.event)


def own_player(user, sheet: SignupSheet):
    """The player a login signs up: only his own, the club's player linked to it (None: he cannot sign up)."""
    return player_of(user, sheet.club)
