"""Reads for club evenings: the list on /games/ and the home page, an evening's games by table, the reader's table
now."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from games.models import ClubEvening, Game, Seat


def recent_evenings(club, limit: int = 10) -> QuerySet[ClubEvening]:
    if club is None:
        return ClubEvening.objects.none()
    return (ClubEvening.objects.filter(club=club).select_related("ruleset")
            .annotate(game_count=Count("games")).order_by("-date", "-id")[:limit])


@dataclass
class EveningTable:
    number: int | None
    games: list[Game] = field(default_factory=list)


def evening_tables(evening: ClubEvening) -> list[EveningTable]:
    """The evening's games grouped by table (tables in order, games by number; games without a table last)."""
    games = evening.games.select_related("judge").order_by("table", "number")
    tables: dict[int | None, EveningTable] = {}
    for game in games:
        tables.setdefault(game.table, EveningTable(game.table)).games.append(game)
    return sorted(tables.values(), key=lambda t: (t.number is None, t.number or 0))


def next_tables(tables: list[EveningTable]) -> list[int]:
    """The tables a judge may start a game at in one tap: every table in use, and one more."""
    used = sorted(t.number for t in tables if t.number is not None)
    return used + [(used[-1] if used else 0) + 1]


@dataclass
class MyTable:
    """A table the reader has a place at now: `seat` where he plays, None where he judges."""

    game: Game
    event: str
    table: int | None
    seat: int | None = None


def evening_tables_now(user, today: dt.date) -> list[MyTable]:
    """The club evenings' tables of `user` now: the games he judges or plays in that are not over, of today's evening
    (or still being played from an evening before), his table first by table and number."""
    if not getattr(user, "is_authenticated", False):
        return []
    now = (Game.objects.filter(evening__isnull=False, status__in=(Game.Status.DRAFT, Game.Status.IN_PROGRESS))
           .filter(Q(evening__date=today) | Q(status=Game.Status.IN_PROGRESS)).select_related("evening"))
    judged = [MyTable(g, str(g.evening), g.table) for g in now.filter(judge=user)]
    seats = Seat.objects.filter(player__user=user, game__in=now).select_related("game__evening")
    played = [MyTable(s.game, str(s.game.evening), s.game.table, s.number) for s in seats]
    return sorted(judged + played, key=lambda t: (t.game.evening.date, t.table or 0, t.game.number, t.seat or 0))  # type: ignore[union-attr]
