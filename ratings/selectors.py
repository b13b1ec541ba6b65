"""Standings read from the stored seat scores (materialised when a game is scored), never from a rescan."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import Game, Seat, Tournament
from games.selectors import StoredSeatScore, stored_seat_scores
from ratings.models import Lot
from ratings.standings import StandingRow, aggregate, draw_lots, rank

CACHE_VERSION_KEY = "standings:v:{kind}:{id}"


@dataclass
class _StoredGame:
    seats: list[StoredSeatScore]


def _cache_version(kind: str, ident: int) -> int:
    return cache.get(CACHE_VERSION_KEY.format(kind=kind, id=ident), 0)


def invalidate_standings(tournament_ids, club_ids) -> None:
    """Called when scores change (a game scored, a protest decided): bump the cache versions."""
    for kind, ids in (("t", tournament_ids), ("c", club_ids)):
        for ident in ids:
            if ident is None:
                continue
            key = CACHE_VERSION_KEY.format(kind=kind, id=ident)
            cache.set(key, cache.get(key, 0) + 1, None)


def counted_games(tournament: Tournament):
    return Game.objects.filter(tournament=tournament, status__in=[Game.Status.FINISHED, Game.Status.SIGNED]
                               ).exclude(result="")


def _lots(tournament: Tournament, players: dict[str, int]) -> dict[str, int]:
    """The stored lot; players without one get theirs drawn now, once (000 T6.2.4, 002 III.14.6)."""
    stored = {lot.player_id: lot.number for lot in Lot.objects.filter(tournament=tournament)}
    missing = [pid for pid in players.values() if pid not in stored]
    if missing:
        start = max(stored.values(), default=0)
        numbers = draw_lots([str(pid) for pid in missing], random.SystemRandom())
        with transaction.atomic():
            Lot.objects.bulk_create(
                [Lot(tournament=tournament, player_id=pid, number=start + numbers[str(pid)]) for pid in missing],
                ignore_conflicts=True)
        stored = {lot.player_id: lot.number for lot in Lot.objects.filter(tournament=tournament)}
    return {nick: stored[pid] for nick, pid in players.items() if pid in stored}


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    key = f"standings:t:{tournament.pk}:{_cache_version('t', tournament.pk)}"
    rows = cache.get(key)
    if rows is not None:
        return rows
    seats = list(Seat.objects.filter(game__in=counted_games(tournament)).select_related("player"))
    ids = {s.player.nickname: s.player_id for s in seats}
    games: dict[int, list[Seat]] = {}
    for s in seats:
        games.setdefault(s.game_id, []).append(s)
    records = aggregate([_StoredGame(stored_seat_scores(g)) for g in games.values()],
                        tournament.difficult_role_letters())
    ruleset = tournament.ruleset.ruleset()
    rows = rank(list(records.values()), ruleset.tiebreakers, _lots(tournament, ids))
    cache.set(key, rows, 3600)
    return rows


def standings_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament.name,
        "rows": [
            {"rank": r.rank, "player": r.player, "games": r.record.games, "wins": r.record.wins,
             "main": _num(r.record.main), "extras": _num(r.record.extras), "total": _num(r.record.total),
             **({"decided_by": r.decided_by} if r.decided_by else {})}
            for r in tournament_standings(tournament)
        ],
    }


def _num(value):
    from games.rules.interchange import points_json

    return points_json(value)
