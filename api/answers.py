"""The API's answers to the public, kept by version: an answer whose inputs are stamped (api.selectors.game_stamp:
the game's version, status, result and protests, and its club's generation: `with_generation`) is built once per stamp and language
and served from the cache to every anonymous reader until the stamp moves. A reader with a token or a session may
see more (the judge staff see a game's secrets) and always gets an answer built for him. The ETag stays the hash
of the body (api.middleware), so a kept answer has the same ETag as a built one.

A public reader's whole answer, of every operation, is kept too (club.page_cache, api/urls.py: until the next
write of the club's data); this per-stamp answer serves the misses. `settings.API_ANSWER_CACHE` off builds every
answer (the tests run both ways).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from club.page_cache import minute_stamp
from games.page_cache import club_generation

TIMEOUT = 24 * 3600


def public_reader(request) -> bool:
    """No token and no logged-in user: the reader sees exactly what everyone sees."""
    return getattr(request, "api_token", None) is None and not getattr(request.user, "is_authenticated", False)


def with_generation(stamp: str | None) -> str | None:
    """A game's stamp (api.selectors.game_stamp, its club last) with the club's generation (games.page_cache: dropped
    by a rescoring, a protest filed or decided, a renamed player, the Elo), so that those show at once."""
    if stamp is None:
        return None
    return f"{stamp}:{club_generation(int(stamp.rsplit(':', 1)[1]))}"


def whole_answer_stamp(request, *args, **kwargs) -> str | None:  # noqa: ARG001 — a view's arguments
    """The stamp of a whole public answer kept by club.page_cache (api/urls.py): the minute (a sign-up sheet opens
    and closes with time), or None with `API_ANSWER_CACHE` off (every answer built)."""
    return minute_stamp() if settings.API_ANSWER_CACHE else None


def kept(request, stamp: str | None, build: Callable[[], Any]) -> Any:
    """`build()`, or the answer built for the same stamp before (a public reader, a stamp, the switch on)."""
    if stamp is None or not settings.API_ANSWER_CACHE or not public_reader(request):
        return build()
    key = "api:answer:" + hashlib.sha256(f"{stamp}|{get_language()}".encode()).hexdigest()[:32]
    answer = cache.get(key)
    if answer is None:
        answer = build()
        cache.set(key, answer, TIMEOUT)
    return answer
