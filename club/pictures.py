"""Every picture the site stores (a player's photo, the club's logo) is one the site wrote itself.

`normalized(upload, rule)` is the only way a picture reaches storage: the upload is decoded by Pillow, never
trusted by its name or content type; only JPEG, PNG and WebP of at most `MAX_BYTES` and `MAX_PIXELS` are taken;
what is stored is a new file re-encoded from the pixels alone — no EXIF (GPS), comment, XMP, ICC profile or
anything appended — of at most the rule's side, under a name unique to this upload (so it can be cached for good).

The fields below route every write through it: `PictureField` (the model field of `Player.photo` and `Club.logo`)
re-encodes any file saved into it that is not normalized yet, and offers `PictureFormField` to every ModelForm
(the site's player form, /admin/, the club's settings), which does the same while the form is cleaned, so bad
input is a form error naming the field. A file the field no longer points to — replaced, cleared, or its row
deleted — is deleted from storage once the transaction commits.
"""

from __future__ import annotations

import functools
import io
import uuid
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models, router, transaction
from django.db.models.fields.files import ImageFieldFile, ImageFileDescriptor
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from PIL import Image, ImageFile, ImageOps

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
ACCEPTED = {"JPEG", "PNG", "WEBP"}
ACCEPT_ATTR = "image/jpeg,image/png,image/webp"

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Rule:
    """How one kind of picture is stored: `label` names the field in messages."""

    label: StrOrPromise
    side: int
    crop: bool  # cut to a square (a photo) or fit whole into one, with transparent margins (a logo)
    format: str  # "JPEG" or "PNG"


PHOTO = Rule(gettext_lazy("Photo"), 512, crop=True, format="JPEG")
# the header shows the logo in a 32 px square (templates/base.html): fit whole, kept sharp up to 8× zoom
LOGO = Rule(gettext_lazy("Logo"), 256, crop=False, format="PNG")
RULES = {"photo": PHOTO, "logo": LOGO}
_EXTENSIONS = {"JPEG": "jpg", "PNG": "png"}


class PictureError(ValidationError):
    """The upload is refused; the message names the field and the rule."""


class NormalizedPicture(ContentFile):
    """Bytes `normalized` wrote: stored as they are."""


def _refuse(rule: Rule, message: str) -> PictureError:
    return PictureError(_("%(field)s: %(rule)s") % {"field": rule.label, "rule": message}, code="picture")


def _decoded(upload, rule: Rule) -> Image.Image:
    """The upload's pixels, upright, in RGBA; every failure to decode or turn it upright is a PictureError."""
    upload.seek(0)
    # WeasyPrint sets Pillow's process-wide LOAD_TRUNCATED_IMAGES on import (a worker that drew a PDF sheet then
    # took truncated data and over-long PNG chunks as pictures): an upload is always read strictly. The pictures a
    # sheet draws are the site's own, re-encoded here.
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            # Pillow warns of what is wrong in the upload (a bomb's size, corrupt EXIF): judged here, not logged
            warnings.simplefilter("ignore")
            return _upright(upload, rule)
    except PictureError:
        raise
    except Exception as exc:
        # Pillow's decoders answer a malformed file with whatever it provokes: ValueError (a zTXt or iCCP chunk
        # inflating past its limit, a 5-byte IHDR), SyntaxError (an eXIf chunk that is no TIFF), AttributeError
        # or a negative seek (an Exif IFD whose types lie), OSError (truncated data), DecompressionBombError…
        raise _refuse(rule, _("the file cannot be read as a picture.")) from exc


def _upright(upload, rule: Rule) -> Image.Image:
    with Image.open(upload) as image:
        if image.format not in ACCEPTED:
            raise _refuse(rule, _("only JPEG, PNG and WebP pictures are accepted."))
        if image.width * image.height > MAX_PIXELS:
            raise _refuse(rule, _("the picture has more than 40 megapixels."))
        image.draft("RGB", (rule.side, rule.side))  # JPEG: decode at the smallest scale still big enough
        return ImageOps.exif_transpose(image).convert("RGBA")


def _on_white(image: Image.Image) -> Image.Image:
    """A photo's transparent parts on white (JPEG has no alpha)."""
    background = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return Image.alpha_composite(background, image).convert("RGB")


def normalized(upload, rule: Rule = PHOTO) -> NormalizedPicture:
    """The picture re-encoded by the rule, from its pixels alone, under a new unique name; PictureError when it
    is too large, not JPEG/PNG/WebP, or cannot be decoded or turned upright. A NormalizedPicture is returned as
    it is (the form field and the model field both call this)."""
    if isinstance(upload, NormalizedPicture):
        return upload
    if upload.size is not None and upload.size > MAX_BYTES:
        raise _refuse(rule, _("the file is larger than 5 MB."))
    image = _decoded(upload, rule)
    if rule.crop:
        image = ImageOps.fit(_on_white(image), (min(rule.side, image.width, image.height),) * 2)
    else:
        image.thumbnail((rule.side, rule.side))
        image = ImageOps.pad(image, (max(image.size),) * 2, color=(0, 0, 0, 0))
    image.info = {}  # nothing of the upload is written back: comment, EXIF, XMP, ICC profile, dpi…
    out = io.BytesIO()
    if rule.format == "JPEG":
        image.save(out, "JPEG", quality=85, optimize=True)
    else:
        image.save(out, "PNG", optimize=True)
    return NormalizedPicture(out.getvalue(), name=f"{uuid.uuid4().hex}.{_EXTENSIONS[rule.format]}")


class PictureFormField(forms.FileField):
    """A form's picture: cleaned into a NormalizedPicture, or a form error naming the field."""

    def __init__(self, *, rule: Rule = PHOTO, **kwargs):
        self.rule = rule
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "accept": ACCEPT_ATTR}

    def to_python(self, data):
        upload = super().to_python(data)
        return None if upload is None else normalized(upload, self.rule)


class PictureFieldFile(ImageFieldFile):
    def save(self, name, content, save=True):  # noqa: ARG002 — the name is the new unique one
        """Every write of the field's file: re-encoded first; the file it replaces is deleted after commit."""
        content = normalized(content, self.field.rule)  # type: ignore[attr-defined]
        if self._committed and self.name:  # type: ignore[attr-defined]
            _replaced(self.instance, self.field).add(self.name)
        super().save(content.name, content, save=save)


class PictureDescriptor(ImageFileDescriptor):
    def __set__(self, instance, value):
        previous = instance.__dict__.get(self.field.attname)
        super().__set__(instance, value)
        # a stored file replaced by an upload or cleared — not the first value a loaded row gets, and not a stored
        # name put back (the admin's history revert), which must not lose the file it replaces
        replacing = not value or (not isinstance(value, str) and not getattr(value, "_committed", False))
        stored = _stored_name(previous)
        if replacing and stored:
            _replaced(instance, self.field).add(stored)


def _stored_name(value) -> str | None:
    if isinstance(value, str):
        return value or None
    return getattr(value, "name", None) if getattr(value, "_committed", False) else None


def _replaced(instance, field) -> set[str]:
    return instance.__dict__.setdefault("_replaced_pictures", {}).setdefault(field.attname, set())


def _delete_after_commit(storage, names: set[str], using: str) -> None:
    for name in names:
        transaction.on_commit(functools.partial(storage.delete, name), using=using)


class PictureField(models.ImageField):
    """An ImageField whose every write goes through `normalized` with its rule ("photo" or "logo"), and whose
    replaced or removed files are deleted from storage."""

    attr_class = PictureFieldFile
    descriptor_class = PictureDescriptor

    def __init__(self, *args, kind: str = "photo", **kwargs):
        self.kind = kind
        self.rule = RULES[kind]
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["kind"] = self.kind
        return name, path, args, kwargs

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": PictureFormField, "rule": self.rule, **kwargs})

    def contribute_to_class(self, cls, name, *args, **kwargs):
        super().contribute_to_class(cls, name, *args, **kwargs)
        if not cls._meta.abstract:  # weakly: the models migrations render leave with their receivers
            uid = f"picture-{cls._meta.label_lower}-{name}"
            post_save.connect(self._saved, sender=cls, dispatch_uid=f"{uid}-saved")
            post_delete.connect(self._deleted, sender=cls, dispatch_uid=f"{uid}-deleted")

    def _saved(self, sender, instance, using=None, update_fields=None, **kwargs) -> None:  # noqa: ARG002
        if update_fields is not None and self.attname not in update_fields:
            return  # the stored row still names the old file
        replaced = instance.__dict__.get("_replaced_pictures", {}).pop(self.attname, set())
        current = getattr(instance, self.attname).name
        _delete_after_commit(self.storage, replaced - {current, "", None}, using or router.db_for_write(sender))

    def _deleted(self, sender, instance, using=None, **kwargs) -> None:  # noqa: ARG002
        name = getattr(instance, self.attname).name
        if name:
            _delete_after_commit(self.storage, {name}, using or router.db_for_write(sender))
