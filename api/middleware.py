"""Around every answer under /api/: a per-address rate limit (429 with Retry-After), conditional GETs (ETag,
Last-Modified, 304), HEAD on every GET (the GET's answer and headers without the body), and every error in the
documented JSON shape `{"detail": …}` — also those answered before the API's own code (a NUL character refused by
club.middleware, a method not allowed, a URL that is no operation).

The limit is a fixed window counted in the site's cache (club.throttle): a cache that is down lets the request
through (club.cache.ResilientRedisCache answers a miss), never a 500. The ETag is the hash of the answer's body for
its reader (`Vary: Authorization, Cookie`), so it changes whenever anything in the answer does and only then (a
secret tap of a game in play changes nothing a spectator reads); Last-Modified is when the server first gave that
body, remembered in the cache under the ETag (club.stamps).
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponseNotModified, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club import throttle
from club.axes_handler import client_ip
from club.stamps import body_etag, first_seen, not_modified

PREFIX = "/api/"
# A polled answer whose inputs are stamped (api.selectors.game_stamp) remembers its ETag under the stamp and the
# reader for this long: an unchanged poll is then a 304 without reading the answer. What the stamp does not cover
# (a player renamed) shows within this time.
STAMP_SECONDS = 60
JSON = "application/json"
# The words of an error answered as HTML by a layer before the API (Django's own pages); a plain-text answer (the NUL
# refusal) keeps its own words. Lazy: read in the request's language.
STATUS_DETAIL = {
    400: gettext_lazy("The request is not valid."),
    403: gettext_lazy("You are not allowed to do this."),
    404: gettext_lazy("Not found, or not visible to you."),
    405: gettext_lazy("This method is not allowed here; allowed: %(allowed)s."),
}
REPLACED_HEADERS = {"content-type", "content-length"}  # those of the old body; the others (Allow, Retry-After…) stay


def _reader(request) -> str:
    token = getattr(request, "api_token", None)
    user = getattr(request, "auth", None)
    return f"t{token.pk}" if token is not None else f"u{getattr(user, 'pk', None) or 0}"


def known_poll(request, stamp: str | None):
    """A 304 for a poll repeating the ETag this reader was given for the same stamp, else None (and the ETag of the
    answer about to be built is remembered under the stamp)."""
    if stamp is None:
        return None
    key = "api:stamp:" + hashlib.sha256(f"{stamp}|{_reader(request)}".encode()).hexdigest()[:32]
    known = cache.get(key)
    request.api_stamp_key = key
    if not (isinstance(known, tuple) and len(known) == 2):
        return None
    etag, last_modified = known
    if not not_modified(request, etag, last_modified):
        return None
    response = HttpResponseNotModified()
    response["ETag"], response["Last-Modified"] = etag, http_date(last_modified)
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response


class ApiMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(PREFIX):
            return self.get_response(request)
        refused = self._over_limit(request)
        if refused is not None:
            return refused
        head = request.method == "HEAD"
        if head:
            request.method = "GET"  # HEAD is the GET without its body (RFC 9110 9.3.2): every read answers it
        response = self.get_response(request)
        if request.method == "GET" and response.status_code == 200 and not response.streaming:
            response = self._conditional(request, response)
        response = _as_json_error(response)
        if head:
            request.method = "HEAD"
            if not response.streaming:
                response.headers.setdefault("Content-Length", str(len(response.content)))
                response.content = b""
        return response

    def _over_limit(self, request):
        limit = settings.API_RATE_LIMIT_PER_MINUTE
        if limit <= 0 or request.method == "OPTIONS":
            return None
        address = client_ip(request) or "unknown"
        window = int(time.time() // 60)
        scope = f"api:{window}"
        if throttle.over_limit(scope, address, limit=limit):
            response = JsonResponse({"detail": _("Too many requests from your address: at most %(limit)s a "
                                                 "minute. Try again in %(seconds)s s.")
                                     % {"limit": limit, "seconds": 60 - int(time.time()) % 60}}, status=429)
            response["Retry-After"] = str(60 - int(time.time()) % 60)
            return response
        throttle.count(scope, address, period_seconds=60)
        return None

    def _conditional(self, request, response):
        etag = body_etag(response.content)
        last_modified = first_seen(etag, scope="api")
        stamp_key = getattr(request, "api_stamp_key", None)
        if stamp_key:
            cache.set(stamp_key, (etag, last_modified), STAMP_SECONDS)
        patch_vary_headers(response, ("Authorization", "Cookie"))
        if not_modified(request, etag, last_modified):
            unchanged = HttpResponseNotModified()
            for header in ("Vary", "Cache-Control"):
                if header in response:
                    unchanged[header] = response[header]
            response = unchanged
        response["ETag"] = etag
        response["Last-Modified"] = http_date(last_modified)
        return response


def _as_json_error(response):
    """An error answered by a layer before the API's own code (Django's HTML pages, club.middleware's plain text) in
    the API's JSON shape, with its status and its headers (Allow, Retry-After, Vary…)."""
    if response.status_code < 400 or response.streaming or response.get("Content-Type", "").startswith(JSON):
        return response
    if response.get("Content-Type", "").startswith("text/plain") and response.content.strip():
        detail = response.content.decode(response.charset or "utf-8", "replace").strip()
    elif response.status_code == 405:
        detail = STATUS_DETAIL[405] % {"allowed": response.get("Allow", "") or "—"}
    elif response.status_code in STATUS_DETAIL:
        detail = str(STATUS_DETAIL[response.status_code])
    else:
        detail = _("The request could not be answered (HTTP %(status)s).") % {"status": response.status_code}
    answer = JsonResponse({"detail": detail}, status=response.status_code)
    for header, value in response.items():
        if header.lower() not in REPLACED_HEADERS:
            answer[header] = value
    return answer
