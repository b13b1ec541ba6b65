"""`/health/` (club.health): 200 with the state of the database, the cache and the task queue; 503 when the
database does not answer. Never cached; any allowed host (ALLOWED_HOSTS still applies), plain HTTP too
(settings.SECURE_REDIRECT_EXEMPT), so a monitor on the machine may ask gunicorn directly."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from club import health as checks


@never_cache
@require_safe
def health(request):  # noqa: ARG001 — a view's signature
    report = checks.report()
    return JsonResponse(report, status=503 if report["database"] != checks.OK else 200)
