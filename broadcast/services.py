"""Writes of the overlay tokens: create and revoke, each checked, in one transaction, with its history record."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from broadcast.models import OverlayToken
from broadcast.permissions import can_manage_overlays
from club.audit import log_action
from club.services import ServiceError
from games.models import Tournament


def _require(by, event) -> None:
    if not can_manage_overlays(by, event):
        raise PermissionDenied(_("Only a club admin or the tournament's head judge may manage its overlays."))


def token_create(*, event, kind: str, by) -> OverlayToken:
    """A new token of `kind` for a tournament or a club evening."""
    _require(by, event)
    if kind not in OverlayToken.Kind.values:
        raise ServiceError(_("Kind: choose the public overlay or the director's view."), field="kind")
    where = {"tournament": event} if isinstance(event, Tournament) else {"evening": event}
    with transaction.atomic():
        return OverlayToken.objects.create(club=event.club, kind=kind, created_by=by, **where)


def token_revoke(*, token: OverlayToken, by) -> OverlayToken:
    """Revoke a token: its URLs answer 404 from the next poll on. Revoking twice changes nothing."""
    _require(by, token.event)
    with transaction.atomic():
        locked = OverlayToken.objects.select_for_update().get(pk=token.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            log_action(locked, by=by, reason="revoked", update_fields=["revoked_at"])
        return locked
