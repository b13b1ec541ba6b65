"""The site serves its own uploads (players' photos, the club's logo) from MEDIA_ROOT, so a small club can run
gunicorn alone; behind a web server that serves /media/ itself, `SERVE_MEDIA=0` turns this off.

Why a view of our own: `django.views.static.serve` is documented as for development only (no caching headers of
its own, types guessed from the name), and whitenoise indexes its files when the process starts and says it is
not meant for user uploads, which appear later. So a small FileResponse with the checks:

- only regular files under MEDIA_ROOT (symbolic links resolved first), never a directory listing, never a
  hidden file, no way out with `..` or an absolute path: anything else is 404;
- the type is decided from the file's first bytes, never from its name: JPEG, PNG or WebP (all the site ever
  stores, club.pictures); any other file is 404, so no upload is ever answered as HTML or script;
- `X-Content-Type-Options: nosniff`, `ETag` and `Last-Modified` (answered 304 when unchanged), and a year's
  `Cache-Control: public, immutable` — a stored name is unique to its upload (club.pictures), so a replaced
  picture has a new URL.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.views.decorators.http import require_safe

MAX_AGE = 365 * 24 * 3600
# the first bytes of each type the site stores (club.pictures writes JPEG and PNG; WebP is accepted on input)
_SIGNATURES = (
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
)


def _content_type(head: bytes) -> str | None:
    for signature, content_type in _SIGNATURES:
        if head.startswith(signature):
            return content_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def _media_file(path: str) -> Path:
    root = Path(settings.MEDIA_ROOT).resolve()
    parts = path.split("/")
    if not settings.SERVE_MEDIA or any(not part or part.startswith(".") or "\\" in part for part in parts):
        raise Http404
    try:
        target = root.joinpath(*parts).resolve(strict=True)
    except (OSError, ValueError):  # missing, a loop of links, a NUL in the name
        raise Http404 from None
    if not target.is_relative_to(root) or not target.is_file():
        raise Http404
    return target


@require_safe
def media(request, path: str):
    try:
        handle = _media_file(path).open("rb")
    except OSError:  # deleted since it was found (a picture just replaced)
        raise Http404 from None
    stat = os.fstat(handle.fileno())
    content_type = _content_type(handle.read(12))
    handle.seek(0)
    etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
    response = None
    if content_type is not None:
        response = get_conditional_response(request, etag=etag, last_modified=int(stat.st_mtime)) or \
            FileResponse(handle, content_type=content_type)
    if not isinstance(response, FileResponse):
        handle.close()
    if response is None:
        raise Http404
    response["ETag"] = etag
    response["Last-Modified"] = http_date(stat.st_mtime)
    response["Cache-Control"] = f"public, max-age={MAX_AGE}, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response
