"""The error pages (400, 403, 404, 411, 413, 500, 503): rendered without a request, so no context processor runs and
nothing needs the user, the session or the database — a hostile Host header or an oversized body is refused
before authentication runs, and a database outage is what failed. The language is the visitor's choice (cookie)
or the club's, as everywhere (club.language.club_language).

A database that does not answer (club.db.is_unavailable) is a 503 with Retry-After, not a 500: from a view through
club.middleware.DatabaseBusyMiddleware, from anywhere else (a middleware saving the session) through `server_error`.
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig, TooManyFieldsSent
from django.db import DatabaseError
from django.http import HttpResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _

from club.db import is_unavailable
from club.language import club_language

RETRY_AFTER_SECONDS = 5


def render_error(request, status: int, context: dict | None = None) -> HttpResponse:
    with translation.override(club_language(request)):
        body = loader.get_template(f"{status}.html").render({"status": status, **(context or {})})
    return HttpResponse(body, status=status)


def database_unavailable(request) -> HttpResponse:
    response = render_error(request, 503, {"retry_after": RETRY_AFTER_SECONDS})
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def bad_request(request, exception=None):
    if isinstance(exception, RequestDataTooBig):
        return render_error(request, 413, {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    with translation.override(club_language(request)):
        if isinstance(exception, TooManyFieldsSent):
            reason = _("The request has more than %(limit)s fields; nothing was saved.") % {
                "limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
        elif isinstance(exception, DisallowedHost):
            reason = _("The request was sent to a site address this site does not serve.")
        else:
            reason = ""
    return render_error(request, 400, {"reason": reason})


def permission_denied(request, exception=None):
    message = str(exception) if exception is not None else ""
    try:
        user = getattr(request, "user", None)
        signed_out = user is not None and not user.is_authenticated
    except DatabaseError:  # the session's user could not be read: no login link rather than an error
        signed_out = False
    return render_error(request, 403, {"exception": message, "signed_out": signed_out, "path": request.path})


def page_not_found(request, exception=None):  # noqa: ARG001 — exception: Django's handler404 signature
    return render_error(request, 404)


def server_error(request):
    if is_unavailable(sys.exc_info()[1]):
        return database_unavailable(request)
    return render_error(request, 500)
