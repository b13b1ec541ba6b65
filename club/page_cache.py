"""Whole public pages kept by version: an anonymous visitor's answer served without running its view.

`@public_page()` on a view keeps the body (and the headers the view set) of a 200 answer to an anonymous GET, per
address (scheme, host, path and query), language, time zone, htmx headers, the site's release, the *public
generation* and the view's own stamp, and serves it to the next anonymous visitor without rendering a template.
Middleware still runs on every answer (the CSRF cookie, the security headers, the API's ETag).

Never served from this cache (the view runs): a logged-in visitor (a judge, an admin, a player sees more: roles of a
game in play, hidden rounds, forms), a request with pending messages, a conditional GET (the view answers 304), an
API request with a token, anything but GET, a view's stamp of None. Never kept: an answer that is not 200, that
sets a cookie, whose view wrote the visitor's session, that its view marked `not_kept`, or whose view put a real
CSRF token in it (see below).

The CSRF token: a kept body must not carry its first visitor's token. While a page is rendered for the cache, the
template's `csrf_token` is a placeholder (`csrf_placeholder`, a context processor after Django's own), replaced on
serving by the requester's own token (`get_token`, which also marks the CSRF cookie to be set). A view that asks
`get_token` itself (the judge's forms) sets `CSRF_COOKIE_NEEDS_UPDATE`, and its answer is not kept. No CSP nonce is
used by the site (templates/base.html), so nothing else in a body is per request.

The *public generation* is a token in the site's cache, dropped after the commit of every transaction with a
statement that writes a table of the club's data, and at once when needed (`public_changed`). `watch_writes`, a
database execute wrapper, sees each statement: an INSERT, UPDATE or DELETE on any table but the sessions, the login
throttle, the task queue, the notices and the API's tokens — a queryset UPDATE, a bulk write and a raw statement
included, which no model signal sees (club.bulk writes through plain statements, no COPY). So a kept page is never older than the last committed
write, whatever it changed: a sign-off, a protest decided, an import, a rename, a photo, a round shown, a sign-up,
a judge's tap. Pages whose content also moves with time (a sign-up that opens, a protest window that closes, the
next evening) add the minute to their stamp (`minute_stamp`).

Where the site's cache is per process (`locmem://`, gunicorn's workers), a write in one process cannot reach the
others' tokens: there a kept page lasts at most `PUBLIC_PAGE_CACHE_LOCAL_SECONDS` (another worker's write shows
within that time); with Redis it lasts until the generation moves. `PUBLIC_PAGE_CACHE` off runs every view.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import connection as default_connection
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.urls import URLPattern
from django.utils import timezone
from django.utils.translation import get_language

from club.cache import generation, shared

GENERATION_KEY = "club:public-gen"
TIMEOUT = 24 * 3600
# Tables whose writes change no public page: sessions, the admin's log, the login throttle (axes), the task queue,
# the notices and their deliveries, the API's tokens (their last use), a login's time.
QUIET_TABLES = ('"django_session"', '"django_admin_log"', '"axes_', '"django_tasks', '"notify_', '"api_',
                "django_session", "axes_", "django_tasks", "notify_", "api_")
QUIET_STATEMENTS = ('UPDATE "auth_user" SET "last_login"',)
HTMX_HEADERS = ("HX-Request", "HX-Target", "HX-Trigger", "HX-Boosted", "HX-History-Restore-Request")
_ATTR = "_public_page_placeholder"


# ---------------------------------------------------------------------------------------------- the generation


class _Seen:
    """Whether this process read the generation since it last dropped it (see `public_changed`)."""

    read = True


def public_generation() -> str:
    _Seen.read = True
    return generation(GENERATION_KEY, TIMEOUT)


def _drop() -> None:
    _Seen.read = False
    cache.delete(GENERATION_KEY)


def public_changed(connection=None) -> None:
    """Forget every kept public page once the write commits (in autocommit, at once): one cache delete after the
    commit of each transaction that wrote, whatever the number of its statements (an import's thousands). Inside
    the transaction the token is dropped too when this process read it since it last dropped it: a page read on the
    same connection before the commit (a test's own transaction, which never commits) is not served stale, nor is a
    page kept by a reader under a token made between the write and the commit."""
    conn = connection or default_connection
    if not conn.in_atomic_block:
        _drop()
        return
    if _Seen.read:
        _drop()
    # one cache delete per committed transaction: each writing statement leaves a hook, the first to run after the
    # commit drops the token and the others see that (a rolled-back transaction's hooks never run)
    commits = conn.__dict__.setdefault("_public_commits", [0])  # this module's own counter on the connection
    seen = commits[0]

    def after_commit() -> None:
        if commits[0] == seen:
            commits[0] += 1
            _drop()

    transaction.on_commit(after_commit, using=conn.alias)


def writes_public(sql: str) -> bool:
    """An INSERT, UPDATE or DELETE (also within a WITH, and a TRUNCATE) of a table of the club's data."""
    head = sql.lstrip()[:8].upper()
    if head.startswith(("SELECT", "SAVEPOI", "RELEASE", "PRAGMA", "SET ", "BEGIN", "COMMIT", "ROLLBAC")):
        return False
    if head.startswith("WITH"):
        upper = sql.upper()
        if not any(verb in upper for verb in ("INSERT ", "UPDATE ", "DELETE ")):
            return False
    elif not head.startswith(("INSERT", "UPDATE", "DELETE", "TRUNCATE", "REPLACE")):
        return False
    if sql.lstrip().startswith(QUIET_STATEMENTS):
        return False
    target = sql[:160]
    return not any(f"{verb} {table}" in target for verb in ("INTO", "UPDATE", "FROM") for table in QUIET_TABLES)


def _watch(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    if isinstance(sql, str) and writes_public(sql):
        public_changed(context["connection"])
    return result


def watch_writes(sender, connection, **kwargs) -> None:  # noqa: ARG001 — a receiver's signature
    """`connection_created` receiver: every statement of the connection passes `_watch`."""
    if _watch not in connection.execute_wrappers:
        connection.execute_wrappers.append(_watch)


# ---------------------------------------------------------------------------------------------- the pages


@functools.cache
def release() -> str:
    """What every kept page was rendered by: the code and templates (their names, sizes and times) and the static
    files' manifest. A deploy changes it, so a shared cache never serves a page of the release before."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha1()
    sources = [top for top in root.iterdir() if (top / "apps.py").exists()] + [root / "templates"]
    for top in sorted(sources):
        for path in sorted(top.rglob("*")):
            if path.suffix in (".py", ".html") and "tests" not in path.parts:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    if settings.STATIC_ROOT and (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        digest.update((Path(settings.STATIC_ROOT) / "staticfiles.json").read_bytes())
    return digest.hexdigest()[:12]


def minute_stamp(*_args, **_kwargs) -> str:
    """For a page whose content moves with time too: kept for the current minute at most."""
    return timezone.now().strftime("%Y%m%d%H%M")


def day_stamp(*_args, **_kwargs) -> str:
    return str(timezone.localdate())


def csrf_placeholder(request) -> dict:
    """Context processor (after Django's csrf one): a page rendered for the cache shows a placeholder token."""
    placeholder = getattr(request, _ATTR, None)
    return {"csrf_token": placeholder} if placeholder else {}


def anonymous_reader(request) -> bool:
    """Nobody logged in, no API token, nothing pending for this visitor alone, no conditional GET."""
    if request.method != "GET" or not settings.PUBLIC_PAGE_CACHE:
        return False
    if "HTTP_AUTHORIZATION" in request.META or getattr(request, "api_token", None) is not None:
        return False
    if "HTTP_IF_NONE_MATCH" in request.META or "HTTP_IF_MODIFIED_SINCE" in request.META:
        return False
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return False
    return not len(messages.get_messages(request))


def _key(request, stamp: str) -> str:
    htmx = "|".join(request.headers.get(h, "") for h in HTMX_HEADERS)
    # the host and scheme too: a page may carry absolute addresses (a calendar link, a share link)
    parts = (request.scheme, request.get_host(), request.get_full_path(), get_language(), timezone.get_current_timezone_name(), htmx, release(),
             public_generation(), stamp)
    return "public-page:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:40]


def _served(entry: dict, request) -> HttpResponse:
    body: bytes = entry["body"]
    placeholder: bytes = entry["placeholder"]
    if placeholder in body:
        body = body.replace(placeholder, get_token(request).encode())
    response = HttpResponse(body, status=200)
    for name, value in entry["headers"]:
        response[name] = value
    return response


def not_kept(response):
    """Mark a view's answer as one to send but not to keep (a page that changes without a write: a game in play's
    sheet)."""
    response.public_page_kept = False
    return response


def _keepable(request, response, before: bool) -> bool:
    if not isinstance(response, HttpResponse) or response.status_code != 200 or response.cookies:
        return False
    if not getattr(response, "public_page_kept", True):
        return False
    if getattr(getattr(request, "session", None), "modified", False):  # the view wrote the visitor's session
        return False
    # the view asked for a real token itself: its body carries this visitor's token
    return request.META.get("CSRF_COOKIE_NEEDS_UPDATE", False) == before


def public_page(stamp: Callable[..., str | None] | None = None):
    """Keep the view's anonymous answer (see the module); `stamp(request, *args, **kwargs)` adds what the page
    shows beyond the public generation (a time: `minute_stamp`), None to run the view this time."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if not anonymous_reader(request):
                return view(request, *args, **kwargs)
            extra = stamp(request, *args, **kwargs) if stamp is not None else ""
            if extra is None:
                return view(request, *args, **kwargs)
            key = _key(request, extra)
            entry = cache.get(key)
            if entry is not None:
                return _served(entry, request)
            placeholder = "csrf" + secrets.token_hex(30)  # 64 characters, as a real token, unguessable
            setattr(request, _ATTR, placeholder)
            before = request.META.get("CSRF_COOKIE_NEEDS_UPDATE", False)
            try:
                response = view(request, *args, **kwargs)
            finally:
                delattr(request, _ATTR)
            if not _keepable(request, response, before):
                if isinstance(response, HttpResponse) and placeholder.encode() in response.content:
                    response.content = response.content.replace(placeholder.encode(), get_token(request).encode())
                return response
            entry = {"body": response.content, "placeholder": placeholder.encode(), "headers": list(response.items())}
            cache.set(key, entry, TIMEOUT if shared() else settings.PUBLIC_PAGE_CACHE_LOCAL_SECONDS)
            return _served(entry, request)

        wrapper.public_page = True  # type: ignore[attr-defined]
        return wrapper

    return decorate


def public_patterns(patterns: list, stamp: Callable[..., str | None] | None = None) -> list:
    """URL patterns whose views are all `public_page(stamp)` (a library's views: the API's, django-ninja's)."""
    return [URLPattern(pattern.pattern, public_page(stamp)(pattern.callback), pattern.default_args, pattern.name)
            for pattern in patterns]
