"""Validators of public answers taken from what the answer shows, never from how it came about.

A counter of writes (`Game.version`) moves on every tap, the secret ones too (a night's checks): an ETag, a
Last-Modified or a `data-` stamp made from it would let a spectator count them. So a public answer's ETag is the
hash of its body, and its Last-Modified is when the server first gave that body, remembered in the cache under the
hash: both stay put while nothing shown changes, whatever was written meanwhile. (The API's answers,
api/middleware.py, and the overlay's board, broadcast/views.py.)
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.http import parse_etags, parse_http_date_safe


def body_etag(body: bytes) -> str:
    """A strong ETag: the first 128 bits of the body's SHA-256, quoted."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def first_seen(etag: str, *, scope: str) -> int:
    """When the server first gave the body with this ETag (now, for a body not seen within the memory)."""
    key = f"{scope}:etag:" + etag.strip('"')
    now = int(time.time())
    if cache.add(key, now, settings.API_ETAG_MEMORY_SECONDS):
        return now
    seen = cache.get(key)
    return seen if isinstance(seen, int) else now


def not_modified(request, etag: str, last_modified: int | None) -> bool:
    """RFC 9110 13.2.2: `If-None-Match` decides when sent, else `If-Modified-Since`."""
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
    if if_none_match:
        return etag in parse_etags(if_none_match) or if_none_match.strip() == "*"
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    return since is not None and last_modified is not None and last_modified <= since
