"""The calendar feeds: the club's coming events (public) and a player's own sign-ups (by his secret address)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from club.selectors import get_site_club
from notify import ical
from notify.models import CalendarFeed

CONTENT_TYPE = "text/calendar; charset=utf-8"


@require_GET
def club_calendar(request):
    club = get_site_club()
    if club is None:
        raise Http404
    return HttpResponse(ical.club_feed(club, request.get_host()), content_type=CONTENT_TYPE)


@require_GET
def my_calendar(request, secret: str):
    feed = CalendarFeed.objects.select_related("user").filter(secret=secret, user__is_active=True).first()
    if feed is None:
        raise Http404
    response = HttpResponse(ical.player_feed(feed.user, request.get_host()), content_type=CONTENT_TYPE)
    response["Cache-Control"] = "private, no-store"
    return response
