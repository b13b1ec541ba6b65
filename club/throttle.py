"""A fixed-window request counter in the site's cache (Redis in production), for requests that cost something
to answer — a password-reset e-mail. Keys are hashed, so no address or e-mail is stored in the cache as written.

A cache that fails (club.cache.ResilientRedisCache) lets the request through rather than locking everybody out;
with the per-process memory cache each process counts on its own.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache


def _key(scope: str, value: str) -> str:
    return "throttle:" + scope + ":" + hashlib.sha256(value.strip().casefold().encode()).hexdigest()


def over_limit(scope: str, value: str, *, limit: int) -> bool:
    """Whether `value` was already counted `limit` times in this window (it is not counted again then)."""
    return (cache.get(_key(scope, value)) or 0) >= limit


def count(scope: str, value: str, *, period_seconds: int) -> None:
    key = _key(scope, value)
    if not cache.add(key, 1, period_seconds):
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.add(key, 1, period_seconds)
