"""Reads for the club's home page, the games' part: the events to come without a sign-up, the games played now and
the latest results."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone

from games.models import ClubEvening, Game, Tournament
from games.protocol.selectors import with_protest_flag
from games.visibility import visible_games


def upcoming_events(club, *, limit: int = 5, today: dt.date | None = None) -> list[ClubEvening | Tournament]:
    """The club evenings and tournaments from today on that take no sign-up (those with a sheet are its cards),
    soonest first: the home page lists them with their date, time and place."""
    if club is None:
        return []
    today = today or timezone.localdate()
    evenings = ClubEvening.objects.filter(club=club, date__gte=today, signup_sheet__isnull=True)
    tournaments = Tournament.objects.filter(club=club, start_date__gte=today, signup_sheet__isnull=True)
    events: list[ClubEvening | Tournament] = [*evenings.order_by("date", "start_time", "id")[:limit],
              *tournaments.order_by("start_date", "start_time", "id")[:limit]]
    events.sort(key=event_start)
    return events[:limit]


def event_start(event: ClubEvening | Tournament) -> tuple[dt.date, dt.time]:
    """When an event listed on the home page begins (a day without a time counts from its start)."""
    day = event.date if isinstance(event, ClubEvening) else event.start_date
    return day, event.start_time or dt.time.min  # type: ignore[return-value]


def playing_now(club, limit: int = 10) -> QuerySet[Game] | list:
    """Games in progress, by table, for their spectator page; a game of a hidden round is not announced."""
    if club is None:
        return []
    return (Game.objects.filter(club=club, status=Game.Status.IN_PROGRESS, results_hidden=False)
            .select_related("tournament", "evening").order_by("table", "id")[:limit])


def latest_results(club, user, limit: int = 10) -> QuerySet[Game] | list:
    """Finished games, the last ended first, with their event (named on the page: «Кубок — стол 2, игра 36») and
    the under-protest flag. A game of a hidden round is listed only to the club's judge staff (games.visibility, as
    the API's lists): listed for anyone, it would tell when and in which order the hidden games end."""
    if club is None:
        return []
    games = visible_games(Game.objects.filter(club=club, status__in=[Game.Status.FINISHED, Game.Status.SIGNED]),
                          user, club)
    return (with_protest_flag(games).select_related("tournament", "evening")
            .order_by("-date", "-ended_at", "-id")[:limit])
