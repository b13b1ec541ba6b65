"""Reads for the club's home page, the games' part: the games played now and the latest results."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Game
from games.selectors import with_protest_flag


def playing_now(club, limit: int = 10) -> QuerySet[Game] | list:
    """Games in progress, by table, for their spectator page; a game of a hidden round is not announced."""
    if club is None:
        return []
    return (Game.objects.filter(club=club, status=Game.Status.IN_PROGRESS, results_hidden=False)
            .select_related("tournament", "evening").order_by("table", "id")[:limit])


def latest_results(club, limit: int = 10) -> QuerySet[Game] | list:
    """Finished games, the last ended first, with their event (named on the page: «Кубок — стол 2, игра 36») and
    the under-protest flag; a game of a hidden round is listed with its result hidden."""
    if club is None:
        return []
    games = Game.objects.filter(club=club, status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
    return (with_protest_flag(games).select_related("tournament", "evening")
            .order_by("-date", "-ended_at", "-id")[:limit])
