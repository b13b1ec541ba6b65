"""The site's own middleware: Russian for every visitor until they choose otherwise with the switch in the header,
the refusals of a NUL in a field and of a body over its size, and the answers to a busy or absent database."""

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _

from club.db import is_conflict, is_unavailable
from club.language import club_language
from club.views_errors import database_unavailable, render_error


class ClubLocaleMiddleware(LocaleMiddleware):
    """Like Django's LocaleMiddleware, but the browser's Accept-Language is ignored: the club's language
    (settings.LANGUAGE_CODE, Russian) is the default, and only the visitor's own choice (the language cookie set
    by the switch) changes it."""

    def process_request(self, request):
        translation.activate(club_language(request))
        request.LANGUAGE_CODE = translation.get_language()


class RejectNulMiddleware:
    """Any GET or POST field (name or value) holding a NUL character is refused with a 400 that names the field.

    PostgreSQL cannot store NUL in text and SQLite would keep it silently, so no form of the site may pass one on;
    the answer is plain text (nothing of the input is echoed as HTML). Uploaded files are their import's concern.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = self._nul_field(request)
        if field is not None:
            message = _("Field “%(field)s”: the NUL character (\\0) is not allowed; nothing was saved.") % {
                "field": field.replace("\x00", "\\0")[:60]}
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _nul_field(request) -> str | None:
        sources = [request.GET]
        content_type = request.META.get("CONTENT_TYPE", "")
        if request.method == "POST" and content_type.startswith(("application/x-www-form-urlencoded",
                                                                 "multipart/form-data")):
            sources.append(request.POST)
        for data in sources:
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    return key
        return None


class DatabaseBusyMiddleware:
    """A write that waited longer than the database's busy timeout (SQLite "database is locked", a PostgreSQL
    deadlock) is answered 503 with a message and Retry-After, never a 500. The judge's actions answer such a
    conflict themselves (409 with the current state); this covers every other page.

    A database that does not answer at all (stopped, restarting, unreachable: club.db.is_unavailable) is answered
    503 with Retry-After and the page club.views_errors renders without the database, for every page and judge
    action; the judge's screen keeps its taps queued on a 503 and sends them when the site answers again."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_unavailable(exception):
            return database_unavailable(request)
        if not is_conflict(exception):
            return None
        response = HttpResponse(_("The site is busy with another write; nothing was saved. Please try again in a "
                                  "moment."), status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "2"
        return response


class RequestSizeMiddleware:
    """A request body over its limit is refused by its Content-Length before a byte of it is read: 413 with the
    error page (the API's JSON `{"detail"}` under /api/), the limit named, nothing saved.

    Every form has the limit of Django's own check, DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB); only the views that take a
    file (settings.LARGE_REQUESTS: URL name → the setting with its limit — the photos, the protocol imports) accept
    more. Django reads no more of the body than its Content-Length says, so that is the cap while reading too; a body
    sent without one (chunked) would read as empty under WSGI, so it is refused with 411 rather than lost. Placed
    before every middleware that reads the body (RejectNulMiddleware, CSRF); Django logs the refusal as one line
    ("Request Entity Too Large: /login/"), without a traceback."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refused = self._refused(request)
        return refused if refused is not None else self.get_response(request)

    def _refused(self, request):
        raw = (request.META.get("CONTENT_LENGTH") or "").strip()
        if not raw:
            if request.META.get("HTTP_TRANSFER_ENCODING"):
                return _refusal(request, 411, None)
            return None
        try:
            length = int(raw)
        except ValueError:  # Django reads such a body as empty
            return None
        limit = request_size_limit(request, length)
        return _refusal(request, 413, limit) if limit is not None and length > limit else None


def request_size_limit(request, length: int) -> int | None:
    """The most bytes the request's view accepts (None: no limit); a view of settings.LARGE_REQUESTS is looked up
    only for a body over the forms' limit."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None or length <= limit:
        return limit
    try:
        name = resolve(request.path_info).view_name
    except Resolver404:
        return limit
    setting = settings.LARGE_REQUESTS.get(name)
    return getattr(settings, setting) if setting else limit


def _refusal(request, status: int, limit: int | None) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        with translation.override(club_language(request)):
            detail = (_("The request is larger than this address accepts (%(limit)s); nothing was saved.")
                      % {"limit": filesizeformat(limit or 0)} if status == 413
                      else _("The request has no Content-Length; send the body with its length."))
        return JsonResponse({"detail": detail}, status=status)
    return render_error(request, status, {"limit": limit, "whole": True})
