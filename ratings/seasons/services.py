"""Writes of the club's rating seasons: create, move (rename, new dates), delete. A club admin's work.

A season is a date range over the club's games; `ratings.standings.services._season_scopes` puts a game into EVERY season
covering its date, and the pages pick the shortest season covering today. Overlapping seasons are therefore
allowed (a year and its spring half, say): each keeps its own table, independent of the others.

What is kept true: every counted game's date lies in some season (a calendar year is made when none covers it,
as `ratings.standings.services` does on scoring; `selectors.club_ratings_key` relies on it). Moving or deleting a season may
leave games uncovered; they get their calendar-year season at once, with its table built in the same transaction.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club import permissions
from club.audit import log_action
from club.models import Club
from club.services import ServiceError
from ratings.models import Season
from ratings.standings.services import counted_games, season_changed

NAME_MAX_LENGTH: int = Season._meta.get_field("name").max_length or 0


@dataclass
class SeasonChange:
    season: Season | None  # None once deleted
    covering: list[Season] = field(default_factory=list)  # calendar-year seasons made for games left uncovered


def _require_admin(by, club: Club) -> None:
    if not permissions.is_club_admin(by, club):
        raise PermissionDenied(_("You are not allowed to do this."))


def _checked(*, name: str, start: dt.date | None, end: dt.date | None) -> tuple[str, dt.date, dt.date]:
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(_("Enter the season's name."), field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(_("The name must be at most %(max)d characters long.") % {"max": NAME_MAX_LENGTH},
                           field="name")
    if start is None:
        raise ServiceError(_("Enter the start date."), field="start")
    if end is None:
        raise ServiceError(_("Enter the end date."), field="end")
    if end < start:
        raise ServiceError(_("The end date cannot be before the start date."), field="end")
    return name, start, end


def _cover_uncovered_games(*, club_id: int, start: dt.date, end: dt.date) -> list[Season]:
    """Counted games dated in [start, end] that no season covers get their calendar year as a season (built now)."""
    dates = set(counted_games().filter(club_id=club_id, date__range=(start, end))
                .values_list("date", flat=True).distinct())
    if not dates:
        return []
    seasons = list(Season.objects.filter(club_id=club_id, start__lte=max(dates), end__gte=min(dates)))
    made = []
    for year in sorted({d.year for d in dates if not any(s.covers(d) for s in seasons)}):
        # the same default as ratings.standings.services._season_scopes, so a later scoring finds this very season
        season, _created = Season.objects.get_or_create(club_id=club_id, start=dt.date(year, 1, 1),
                                                        end=dt.date(year, 12, 31), defaults={"name": str(year)})
        season_changed(season)
        made.append(season)
    return made


def _save(season: Season) -> None:
    """Save, refusing a second season of the same dates (the `season_unique_dates` constraint) with a message, also
    when another request stored it a moment ago."""
    same = Season.objects.filter(club_id=season.club_id, start=season.start, end=season.end).exclude(pk=season.pk)
    taken = same.first()
    if taken is None:
        try:
            with transaction.atomic():
                season.save()
            return
        except IntegrityError:
            taken = same.first()
            if taken is None:
                raise
    raise ServiceError(_("The season «%(name)s» already has these dates.") % {"name": taken.name}, field="start")


@transaction.atomic
def season_create(*, club: Club, by, name: str, start: dt.date | None, end: dt.date | None) -> Season:
    _require_admin(by, club)
    name, start, end = _checked(name=name, start=start, end=end)
    season = Season(club=club, name=name, start=start, end=end)
    log_action(season, by=by, save=False)
    _save(season)
    season_changed(season)  # the new season's table and history, from the games already stored
    return season


@transaction.atomic
def season_update(*, season: Season, by, name: str, start: dt.date | None, end: dt.date | None) -> SeasonChange:
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
    _require_admin(by, season.club)
    old_start, old_end = season.start, season.end
    season.name, season.start, season.end = _checked(name=name, start=start, end=end)
    log_action(season, by=by, save=False)
    _save(season)
    # Rebuilt even when only renamed: the bumped version also renews the cached pages that show the name.
    season_changed(season)
    covering = _cover_uncovered_games(club_id=season.club_id, start=old_start, end=old_end)
    return SeasonChange(season=season, covering=covering)


@transaction.atomic
def season_delete(*, season: Season, by) -> SeasonChange:
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
    _require_admin(by, season.club)
    club_id, start, end = season.club_id, season.start, season.end
    log_action(season, by=by, save=False)
    season.delete()  # its scope, table and history go with it (CASCADE)
    return SeasonChange(season=None, covering=_cover_uncovered_games(club_id=club_id, start=start, end=end))
