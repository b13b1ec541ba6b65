"""The site's Redis cache, which degrades instead of failing: a cache is an optimisation.

Django's RedisCache raises redis' ConnectionError (or TimeoutError) into the page when the server is down or does
not answer, and the rating pages answered 500. `ResilientRedisCache` answers every call as a cache miss instead
(`get` → the default, `add`/`has_key`/`touch` → False, a write is dropped), so the page is computed and served.
Short socket timeouts (settings.cache_config) bound what a server that does not answer costs; after a failure the
server is left alone for `PAUSE_SECONDS`, so a page making many cache calls does not wait on each, and a warning is
logged at most once per `WARN_EVERY_SECONDS` in each process.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("club.cache")

PAUSE_SECONDS = 5.0
WARN_EVERY_SECONDS = 60.0
FAILURES = (RedisConnectionError, RedisTimeoutError, OSError)


class _Outage:
    """Per process: until when the server is left alone, and when the last warning was logged."""

    paused_until = 0.0
    warned_at: float | None = None

    @classmethod
    def reset(cls) -> None:
        cls.paused_until = 0.0
        cls.warned_at = None


class ResilientRedisCache(RedisCache):
    def _guard(self, fallback: Any, call: Callable[[], Any]) -> Any:
        now = time.monotonic()
        if now < _Outage.paused_until:
            return fallback
        try:
            return call()
        except FAILURES as error:
            _Outage.paused_until = now + PAUSE_SECONDS
            if _Outage.warned_at is None or now - _Outage.warned_at >= WARN_EVERY_SECONDS:
                _Outage.warned_at = now
                logger.warning("The cache (%s) does not answer, pages are computed without it: %s",
                               self._servers[0], error)  # type: ignore[attr-defined]
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(False, lambda: super(ResilientRedisCache, self).add(key, value, timeout, version))

    def get(self, key, default=None, version=None):
        return self._guard(default, lambda: super(ResilientRedisCache, self).get(key, default, version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(None, lambda: super(ResilientRedisCache, self).set(key, value, timeout, version))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(False, lambda: super(ResilientRedisCache, self).touch(key, timeout, version))

    def delete(self, key, version=None):
        return self._guard(False, lambda: super(ResilientRedisCache, self).delete(key, version))

    def get_many(self, keys, version=None):
        return self._guard({}, lambda: super(ResilientRedisCache, self).get_many(keys, version))

    def has_key(self, key, version=None):
        return self._guard(False, lambda: super(ResilientRedisCache, self).has_key(key, version))

    def incr(self, key, delta=1, version=None):
        # a counter the cache cannot keep starts afresh (a throttle on it lets the request through)
        return self._guard(delta, lambda: super(ResilientRedisCache, self).incr(key, delta, version))

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(list(data), lambda: super(ResilientRedisCache, self).set_many(data, timeout, version))

    def delete_many(self, keys, version=None):
        return self._guard(None, lambda: super(ResilientRedisCache, self).delete_many(keys, version))

    def clear(self):
        return self._guard(False, lambda: super(ResilientRedisCache, self).clear())


def shared() -> bool:
    """Whether the site's cache is one every process shares (Redis), so that a write in one process reaches what
    another keeps; a per-process memory cache (`locmem://`, each gunicorn worker its own) is not."""
    return not isinstance(caches["default"], LocMemCache)


def kept_where_shared(key: str, build: Callable[[], Any], timeout: int) -> Any:
    """`build()`, kept under `key` only in a cache every process shares: a per-process memory cache is never told
    that another process changed what was built (a club saved in one worker), so there it is built each time. The
    writes that change it delete `key` (club.signals)."""
    if not shared():
        return build()
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, timeout)
    return value


def generation(key: str, timeout: int) -> str:
    """The token under `key` that kept answers put in their keys, made when missing: a write deletes it, and every
    answer kept under the old one is never found again (club.shell, club.page_cache, games.page_cache)."""
    token = cache.get(key)
    if token is None:
        token = uuid.uuid4().hex
        if not cache.add(key, token, timeout):  # another process made one first
            token = cache.get(key) or token
    return token
