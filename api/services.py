"""Writes of the API app: issuing and revoking tokens (a club admin's), and the one write endpoint's import.

A token reads and imports inside its own club only, as its holder with his roles there and never with the site's
superuser powers (api.readers); a token is never issued to a holder with powers its issuer lacks."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.keys import key_hash
from api.models import ApiToken
from api.readers import token_reader
from club.models import Club, Membership
from club.permissions import is_club_admin
from club.services import ServiceError
from games.protocol.services.imports import ImportFailed, import_documents

KEY_PREFIX = "mc_"


def _holder_problem(*, club: Club, by, holder) -> str | None:
    """Why `holder` may not hold a token issued by `by` (None: he may): a member of the club's staff (or the
    issuer himself) whose powers the issuer has himself."""
    User = get_user_model()
    if not isinstance(holder, User) or not (holder.pk == by.pk or Membership.objects.filter(
            club=club, user=holder).exists()):
        return _("Holder: a token is issued only to a member of the club's staff.")
    # The issuer is the club's admin (or the superuser): every staff role of the club is within his powers; the one
    # power beyond them is the superuser's. (A token never reads with it: api.readers; it is refused all the same.)
    if holder.is_superuser and not by.is_superuser:
        return _("Holder: %(name)s is the site's superuser and you are not; a token is issued only to a holder "
                 "whose powers you have yourself.") % {"name": holder.get_username()}
    return None


def token_issue(*, club: Club, by, name: str, holder) -> tuple[ApiToken, str]:
    """A new token for `holder` (a member of the club's staff, or the admin himself); returns it and its key, which
    is shown once and never stored."""
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may issue API tokens."))
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Name: give the token a name (what it is for)."), field="name")
    if len(name) > (ApiToken._meta.get_field("name").max_length or 0):
        raise ServiceError(_("Name: at most 120 characters."), field="name")
    problem = _holder_problem(club=club, by=by, holder=holder)
    if problem:
        raise ServiceError(problem, field="holder")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(club=club, name=name, holder=holder, key_hash=key_hash(key),
                                        prefix=key[:10], created_by=by)
    return token, key


def token_revoke(*, token: ApiToken, by) -> ApiToken:
    if not is_club_admin(by, token.club):
        raise PermissionDenied(_("Only a club admin may revoke API tokens."))
    with transaction.atomic():
        locked = ApiToken.objects.select_for_update().get(pk=token.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
    return locked


def import_allowed(token: ApiToken) -> None:
    """PermissionDenied unless the token's holder is an admin of the token's club (his superuser flag counts not)."""
    if not is_club_admin(token_reader(token), token.club):
        raise PermissionDenied(_("Only a club admin may import protocols."))


def api_import(*, token: ApiToken, body: bytes) -> tuple[int, dict]:
    """`POST /api/v1/imports/`: the body is one mafclub/1 document, imported into the token's club by its holder
    (games.protocol.services.imports.import_documents: the permission check, one transaction, nothing written on any
    problem). Returns the HTTP status and the answer: 201 and the report, or 400 and the problems. The history's
    author is the request's user (the token's reader: api.auth), as for the web upload."""
    import_allowed(token)
    try:
        report = import_documents(documents=[("request", body)], club=token.club, by=token_reader(token))
    except ImportFailed as exc:
        return 400, {"detail": _("%(count)s problem(s); nothing was imported.") % {"count": len(exc.problems)},
                     "problems": exc.problems, "messages": exc.shown}
    except ServiceError as exc:
        return 400, {"detail": exc.message, "problems": [str(exc)], "messages": [exc.message]}
    return 201, {"club": report.club.name, "created": report.created, "updated": report.updated,
                 "players_created": report.players_created, "tournaments": [t.name for t in report.tournaments],
                 "warnings": report.warnings_shown}
