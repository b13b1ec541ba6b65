"""`python manage.py normalize_pictures`: every picture stored before the site re-encoded them all (club.pictures)
is re-encoded now — a 512 px JPEG photo, a 256 px PNG logo, nothing of the upload but its pixels (no GPS, no
comment) — under a new name, and the old file is deleted. A file that cannot be read as a JPEG, PNG or WebP
picture (an EPS or GIF logo stored by /admin/, a bomb) is removed and the field cleared; a name whose file is
missing is left as it is. Pictures already written by the site (a 32-hex-digit name) are skipped, so the command
can run again. Run it once after upgrading; it prints one line per picture it changed and exits 0.
"""

import re

from django.core.management.base import BaseCommand
from django.db import transaction

from club import pictures
from club.models import Club, Player

_WRITTEN_BY_THE_SITE = re.compile(r"(^|/)[0-9a-f]{32}\.(jpg|png)$")


class Command(BaseCommand):
    help = "Re-encode the photos and logos stored before every picture was re-encoded; remove unreadable ones."

    def handle(self, *args, **options):
        changed = 0
        for model, field in ((Player, "photo"), (Club, "logo")):
            for pk in model.objects.exclude(**{field: ""}).values_list("pk", flat=True):
                line = self._normalize(model, pk, field)
                if line:
                    self.stdout.write(line)
                    changed += 1
        self.stdout.write(f"normalize_pictures: {changed} changed")

    @transaction.atomic
    def _normalize(self, model, pk: int, field: str) -> str:
        row = model.objects.select_for_update().get(pk=pk)
        stored = getattr(row, field)
        if _WRITTEN_BY_THE_SITE.search(stored.name) or not stored.storage.exists(stored.name):
            return ""
        old, refused = stored.name, None
        with stored.open("rb") as file:
            try:
                picture = pictures.normalized(file, getattr(model, field).field.rule)
            except pictures.PictureError as error:
                picture, refused = None, error.messages[0]
        setattr(row, field, picture or "")
        row.save(update_fields=[field])  # the old file is deleted when this commits (club.pictures.PictureField)
        outcome = f"removed ({refused})" if refused else f"re-encoded as {getattr(row, field).name}"
        return f"{model._meta.label} {pk} {field} {old}: {outcome}"
