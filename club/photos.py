"""A player's photo page: the player himself or his club's admin stores a new photo or removes it.

The picture itself is made by `club.pictures.normalized` (the one function every stored picture goes through:
decoded by Pillow, JPEG/PNG/WebP only, re-encoded to a 512 px square with no metadata); the file it replaces is
deleted from storage once the change is committed (`club.pictures.PictureField`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from club import permissions, pictures
from club.audit import log_action
from club.models import Player
from club.services import ServiceError

SIDE = pictures.PHOTO.side


def player_photo_set(*, player: Player, by, upload) -> Player:
    """Store a new photo of the player (the player himself or his club's admin), or remove it (`upload` None)."""
    if not permissions.can_change_photo(by, player):
        raise PermissionDenied
    try:
        picture = pictures.normalized(upload, pictures.PHOTO) if upload is not None else None
    except pictures.PictureError as exc:
        raise ServiceError(exc.messages[0], field="photo") from exc
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        log_action(player, by=by, save=False)  # saved below, with the new photo or without one
        player.photo = picture or ""
        player.save(update_fields=["photo"])
    return player
