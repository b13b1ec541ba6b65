"""Reads for club evenings: the list on /games/ and the home page, an evening's games by table."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, QuerySet

from games.models import ClubEvening, Game


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
