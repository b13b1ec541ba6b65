"""The ranking a tournament's final is drawn from: the tie-broken standings over given games, hidden rounds
included (the organiser's view). Registered with `games.tournaments.base.RANKERS` (games never imports ratings)."""

from __future__ import annotations

from games.models import Game, Seat, Tournament
from ratings.standings.ranking import PlayerRecord, rank


def rank_players(tournament: Tournament, games: list[Game]) -> list[int]:
    """Player ids, best first, by total and the rule set's tie-breakers (ties left equal are listed by name)."""
    difficult = set(tournament.difficult_role_letters())
    records: dict[int, PlayerRecord] = {}
    seats = Seat.objects.filter(game__in=[g.pk for g in games]).select_related("player")
    for seat in seats:
        # a stored Seat carries the same score fields as the engine's SeatScore
        records.setdefault(seat.player_id, PlayerRecord(player=seat.player.nickname)).add_game(seat, difficult)  # type: ignore[arg-type]
    by_name = {r.player: pid for pid, r in records.items()}
    tiebreakers = tournament.ruleset.ruleset().tiebreakers
    return [by_name[row.player] for row in rank(list(records.values()), tiebreakers, {})]
