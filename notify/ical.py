"""iCalendar feeds (the `icalendar` library): the club's coming events (public) and a player's own sign-ups (a
secret address he can reset). Each event carries its time zone (the club's), its place and its page's link; a sheet
turned into tables stays CONFIRMED, a player's place given back or taken off is sent as CANCELLED."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import icalendar
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.tournaments.signups.models import OFF_THE_LIST, Signup, SignupSheet

LENGTH = dt.timedelta(hours=4)  # an event's assumed length (a sheet stores only its start)
PAST = dt.timedelta(days=30)  # events this old stay in the feed (calendars keep what they saw)


def _calendar(name: str) -> icalendar.Calendar:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//mafclub//notices//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    return cal


def _event(sheet: SignupSheet, *, cancelled: bool, host: str) -> icalendar.Event:
    zone = zoneinfo.ZoneInfo(sheet.club.time_zone or settings.TIME_ZONE)
    start = sheet.starts_at.astimezone(zone).replace(microsecond=0)
    event = icalendar.Event()
    event.add("uid", f"signup-{sheet.pk}@{host}")
    event.add("summary", str(sheet.event))
    event.add("dtstart", start)
    event.add("dtend", start + LENGTH)
    event.add("dtstamp", timezone.now())
    if sheet.place:
        event.add("location", sheet.place)
    url = settings.SITE_URL + reverse("games:signup_sheet", args=[sheet.pk]) if settings.SITE_URL else ""
    if url:
        event.add("url", url)
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    return event


def club_feed(club, host: str) -> bytes:
    cal = _calendar(club.name)
    sheets = SignupSheet.objects.filter(club=club, starts_at__gte=timezone.now() - PAST).select_related(
        "club", "evening", "tournament").order_by("starts_at")
    for sheet in sheets:
        cal.add_component(_event(sheet, cancelled=False, host=host))
    cal.add_missing_timezones()
    return cal.to_ical()


def player_feed(user, host: str) -> bytes:
    cal = _calendar(user.get_username())
    signups = Signup.objects.filter(player__user=user, sheet__starts_at__gte=timezone.now() - PAST).select_related(
        "sheet__club", "sheet__evening", "sheet__tournament").order_by("sheet__starts_at")
    for signup in signups:
        cal.add_component(_event(signup.sheet, cancelled=signup.status in OFF_THE_LIST, host=host))
    cal.add_missing_timezones()
    return cal.to_ical()
