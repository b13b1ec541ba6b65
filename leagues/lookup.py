"""Objects by name for the command line (`manage.py league …`, `manage.py series …`): each miss or ambiguity is one
line naming it."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from club.models import Club
from games.models import Tournament
from leagues.models import League, Series


class NotFound(Exception):
    pass


def league(name: str) -> League:
    found = League.objects.filter(name=name.strip()).first()
    if found is None:
        raise NotFound(f"league: no league named {name!r}")
    return found


def club(name: str) -> Club:
    found = Club.objects.filter(name=name.strip()).first()
    if found is None:
        raise NotFound(f"club: no club named {name!r}")
    return found


def user(username: str):
    found = get_user_model().objects.filter(username=username.strip()).first()
    if found is None:
        raise NotFound(f"--manager: no user named {username!r}")
    return found


def series(name: str) -> Series:
    """A series by its name, or `LEAGUE/SERIES` where two leagues use one name."""
    league_name, _slash, series_name = name.rpartition("/")
    qs = Series.objects.filter(name=series_name.strip()).select_related("league", "gaining__table")
    if league_name:
        qs = qs.filter(league__name=league_name.strip())
    found = list(qs[:2])
    if not found:
        raise NotFound(f"series: no series named {name!r}")
    if len(found) > 1:
        raise NotFound(f"series: {name!r} names a series in several leagues; write LEAGUE/SERIES")
    return found[0]


def tournament(name: str) -> Tournament:
    """A tournament by its name (unique within its club), or `CLUB/TOURNAMENT` where two clubs use one name."""
    qs = Tournament.objects.filter(name=name.strip()).select_related("club", "ruleset")
    if not qs.exists() and "/" in name:
        club_name, _slash, tournament_name = name.partition("/")
        qs = Tournament.objects.filter(club__name=club_name.strip(), name=tournament_name.strip()).select_related(
            "club", "ruleset")
    found = list(qs[:2])
    if not found:
        raise NotFound(f"tournament: no tournament named {name!r}")
    if len(found) > 1:
        raise NotFound(f"tournament: {name!r} names a tournament of several clubs; write CLUB/TOURNAMENT")
    return found[0]
