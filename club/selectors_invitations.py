"""Reads of the staff invitations: the one-time link of an invitation, the invitation behind a link, and its state.

A link is `<id>-<HMAC(id, nonce)>` under the SECRET_KEY (Django's `salted_hmac`): a guessed or altered link matches
nothing, and a copy of the database alone rebuilds no link."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from club.models import Club, StaffInvitation

SALT = "club.staff-invitation"
OPEN, USED, EXPIRED, REVOKED = "open", "used", "expired", "revoked"


def _signature(invitation: StaffInvitation) -> str:
    return salted_hmac(SALT, f"{invitation.pk}:{invitation.nonce}", algorithm="sha256").hexdigest()[:40]


def invitation_token(invitation: StaffInvitation) -> str:
    return f"{invitation.pk}-{_signature(invitation)}"


def invitation_path(invitation: StaffInvitation) -> str:
    return reverse("staff_join", args=[invitation_token(invitation)])


def invitation_by_token(token: str) -> StaffInvitation | None:
    """The invitation the link names, whatever its state; None for a link that names none."""
    pk, _sep, signature = (token or "").partition("-")
    if not pk.isdigit() or len(pk) > 18:
        return None
    invitation = StaffInvitation.objects.select_related("club").filter(pk=int(pk)).first()
    if invitation is None or not constant_time_compare(signature, _signature(invitation)):
        return None
    return invitation


def invitation_state(invitation: StaffInvitation, now: dt.datetime | None = None) -> str:
    """OPEN, or why the link no longer gives anything: USED, REVOKED or EXPIRED."""
    if invitation.used_at is not None:
        return USED
    if invitation.revoked_at is not None:
        return REVOKED
    if (now or timezone.now()) >= invitation.expires_at:
        return EXPIRED
    return OPEN


def open_invitations(*, club: Club) -> QuerySet[StaffInvitation]:
    """The club's invitations still waiting to be used, newest first (their links may be copied again)."""
    return StaffInvitation.objects.filter(club=club, used_at=None, revoked_at=None,
                                          expires_at__gt=timezone.now()).order_by("-created")
