"""The club's time, as a protest's messages and letters quote it (the window's end, the time written on a paper
protest, the moment of a decision)."""

from __future__ import annotations

import datetime as dt

from django.utils import formats, timezone


def club_time(value: dt.datetime) -> dt.datetime:
    """A moment in the club's time zone (settings.TIME_ZONE), whatever zone the request activated."""
    return timezone.localtime(value, timezone.get_default_timezone())


def format_club_time(value: dt.datetime) -> str:
    local = club_time(value)
    return f"{formats.date_format(local, 'DATE_FORMAT')} {local:%H:%M:%S} ({local.tzname()})"
