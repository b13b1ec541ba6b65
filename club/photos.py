"""A player's photo: checked (type, size, pixels), resized on the server with Pillow, stored under MEDIA_ROOT.

The upload is decoded by Pillow, never trusted by its name or content type: only JPEG, PNG and WebP pictures of at
most `MAX_BYTES` and `MAX_PIXELS` are taken; the stored file is a new JPEG of at most `SIDE` × `SIDE` pixels, so
what the site serves is always an image it wrote itself (no metadata, no script in an SVG, no oversized file).
"""

from __future__ import annotations

import io
import secrets

from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from club import permissions
from club.audit import log_action
from club.models import Player
from club.services import ServiceError

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
SIDE = 512
FORMATS = {"JPEG", "PNG", "WEBP"}


def _resized(upload) -> bytes:
    if upload.size > MAX_BYTES:
        raise ServiceError(_("Photo: the file is larger than 5 MB."), field="photo")
    try:
        with Image.open(upload) as image:
            if image.format not in FORMATS:
                raise ServiceError(_("Photo: only JPEG, PNG and WebP pictures are accepted."), field="photo")
            if image.width * image.height > MAX_PIXELS:
                raise ServiceError(_("Photo: the picture has more than 40 megapixels."), field="photo")
            image = ImageOps.exif_transpose(image).convert("RGB")
            image = ImageOps.fit(image, (min(SIDE, image.width, image.height),) * 2)
            out = io.BytesIO()
            image.save(out, "JPEG", quality=85, optimize=True)
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ServiceError(_("Photo: the file is not a picture that can be read."), field="photo") from exc
    return out.getvalue()


def player_photo_set(*, player: Player, by, upload) -> Player:
    """Store a new photo of the player (the player himself or his club's admin), or remove it (`upload` None)."""
    if not permissions.can_change_photo(by, player):
        raise PermissionDenied
    content = _resized(upload) if upload is not None else None
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        old = player.photo.name if player.photo else ""
        log_action(player, by=by, save=False)  # saved below, with the new photo or without one
        if content is None:
            player.photo = ""
            player.save(update_fields=["photo"])
        else:
            player.photo.save(f"{player.pk}-{secrets.token_hex(4)}.jpg", ContentFile(content), save=False)
            player.save(update_fields=["photo"])
        if old:
            storage = player.photo.storage
            transaction.on_commit(lambda: storage.delete(old))
    return player
