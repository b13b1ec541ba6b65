"""Writes of the staff invitations: the club's admin invites (a letter from the task worker, or a link to copy)
and revokes; whoever opens the link accepts it with his login, or registers one first, and gets the role.

Every write checks its permission here and runs in one transaction; accepting locks the invitation's row, so a
link used twice at once gives the role once."""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from club import permissions
from club.audit import log_action
from club.models import Club, Membership, StaffInvitation
from club.selectors_invitations import EXPIRED, OPEN, REVOKED, USED, invitation_path, invitation_state
from club.services import ServiceError, _require
from club.task_queue import enqueue

INVITATION_DAYS = 7


def gone_message(state: str) -> str:
    return {USED: _("This invitation has already been used."),
            EXPIRED: _("This invitation has expired: ask the club's admin for a new one."),
            REVOKED: _("This invitation was revoked by the club's admin.")}.get(
        state, _("This invitation link is not valid."))


class InvitationGone(ServiceError):
    """The link gives nothing: used, expired, revoked or unknown."""


@transaction.atomic
def invitation_create(*, club: Club, by, role: str, email: str = "", base_url: str = "") -> StaffInvitation:
    """A one-time link giving `role` in `club`, valid INVITATION_DAYS days; with an e-mail the worker sends it
    (`base_url`: the site's address the letter's link starts with, when settings.SITE_URL is not set)."""
    _require(permissions.is_club_admin(by, club))
    if role not in Membership.Role.values:
        raise ServiceError(_("Role: choose judge, head judge or club admin."), field="role")
    invitation = StaffInvitation(
        club=club, role=role, email=email.strip(), nonce=secrets.token_hex(16), created_by=by,
        expires_at=timezone.now() + dt.timedelta(days=INVITATION_DAYS))
    log_action(invitation, by=by)
    if invitation.email:
        transaction.on_commit(lambda: enqueue(mail_staff_invitation, invitation.pk, base_url))
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: StaffInvitation, by) -> StaffInvitation:
    invitation = StaffInvitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    _require(permissions.is_club_admin(by, invitation.club))
    state = invitation_state(invitation)
    if state != OPEN:
        raise ServiceError(gone_message(state))
    invitation.revoked_at = timezone.now()
    log_action(invitation, by=by, update_fields=["revoked_at"])
    return invitation


def _accept(invitation: StaffInvitation, user) -> Membership:
    locked = StaffInvitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    state = invitation_state(locked)
    if state != OPEN:
        raise InvitationGone(gone_message(state))
    membership, _created = Membership.objects.get_or_create(club=locked.club, user=user, role=locked.role)
    locked.used_at, locked.used_by = timezone.now(), user
    log_action(locked, by=user, update_fields=["used_at", "used_by"])
    permissions.forget_roles(user)
    return membership


@transaction.atomic
def invitation_accept(*, invitation: StaffInvitation, user) -> Membership:
    """A logged-in user takes the invitation's role in its club; the link is spent."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError(_("Log in or register first."))
    return _accept(invitation, user)


@transaction.atomic
def invitation_register(*, invitation: StaffInvitation, username: str, email: str, password: str):
    """A new login (already checked by the sign-up form: free name, good password) that takes the invitation's
    role, all or nothing: a link spent meanwhile creates no login either."""
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    _accept(invitation, user)
    return user


# The letter goes out from the worker, queued when the invitation commits: a slow mail server delays no page.
@task()
def mail_staff_invitation(invitation_id: int, base_url: str = "") -> int:
    invitation = StaffInvitation.objects.select_related("club", "created_by").filter(pk=invitation_id).first()
    if invitation is None or not invitation.email or invitation_state(invitation) != OPEN:
        return 0
    site = settings.SITE_URL or base_url.rstrip("/")
    with translation.override(settings.LANGUAGE_CODE):
        context = {"invitation": invitation, "club": invitation.club, "role": invitation.get_role_display(),
                   "link": site + invitation_path(invitation), "days": INVITATION_DAYS}
        subject = " ".join(render_to_string("club/invitations/letter_subject.txt", context).split())
        body = render_to_string("club/invitations/letter_body.txt", context)
    return send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])
