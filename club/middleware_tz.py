"""The club's time zone for every page: dates and times are shown as the club's clock reads them."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from club.shell import site_club_look, site_time_zone

# Answers for programs carry their times with the offset (ISO 8601); files are files.
# The judge's service worker, the icon and the health check show no time and must answer without the database.
SKIPPED_PREFIXES = ("/api/", "/static/", "/media/", "/games/judge-sw.js", "/favicon.ico", "/health/")


class ClubTimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(SKIPPED_PREFIXES):
            return self.get_response(request)
        try:
            # the club's look, read once for the request: its zone here, its name, colour and logo in the header
            request.site_club_look = site_club_look()
            zone = zoneinfo.ZoneInfo(site_time_zone(request.site_club_look))
        except DatabaseError:  # the database does not answer: the page says so itself (DatabaseBusyMiddleware)
            zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone the system no longer knows
            zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
        timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
