"""A club's staff add and end the club's memberships (docs/persons.md, "Memberships"): the admin of a club makes a
player of another club, or a guest, its member from a date, and ends its own club's membership of a player.

Only the admin of club X writes X's membership (the superuser everywhere). Ending the membership of the player's
home club is the home club's own act, so it is its admin's; it clears the home club in the same transaction (the
player becomes a person without a home club, a member of his other clubs, whose admins then edit his profile —
`club.permissions.can_edit_player`): a player is never left with a home club he is not a member of, and no other club
is made his home without its say. Each write is one transaction with a history row naming who did it."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.audit import log_action
from club.models import Club, ClubMember, Player
from club.permissions import is_club_admin
from club.services import ServiceError


def _require_admin(by, club: Club) -> None:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("You are not allowed to do this."))


def member_add(*, by, player: Player, club: Club, joined: datetime.date | None = None) -> ClubMember:
    """Make `player` a member of `club` from `joined` (today by default); refused when he already is one."""
    _require_admin(by, club)
    joined = joined or timezone.localdate()
    if joined > timezone.localdate():
        raise ServiceError(_("The date joined must not be in the future."), field="joined")
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if ClubMember.objects.filter(player=player, club=club).exists():
            raise ServiceError(_("%(nickname)s is already a member of %(club)s.")
                               % {"nickname": player.nickname, "club": club.name}, field="club")
        member = ClubMember(player=player, club=club, joined=joined)
        log_action(member, by=by, reason="Membership added by the club's staff")
    return member


def member_end(*, by, player: Player, club: Club) -> None:
    """End `club`'s membership of `player`; his home club's clears his home club too."""
    _require_admin(by, club)
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        member = ClubMember.objects.filter(player=locked, club=club).first()
        if member is None:
            raise ServiceError(_("%(nickname)s is not a member of %(club)s.")
                               % {"nickname": locked.nickname, "club": club.name}, field="club")
        if locked.club_id == club.pk:
            locked.club = None
            log_action(locked, by=by, reason="Home club's membership ended", update_fields=["club"])
            player.club = None
        log_action(member, by=by, reason="Membership ended by the club's staff", save=False)
        member.delete()
