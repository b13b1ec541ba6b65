"""The ranking a tournament's final is drawn from: the tie-broken standings over given games, hidden rounds
included (the organiser's view). Registered with `games.schedule.RANKERS` (games never imports ratings)."""

from __future__ import annotations

from decimal import Decimal

from games.models import Game, Seat, Tournament
from ratings.standings import PlayerRecord, rank


def rank_players(tournament: Tournament, games: list[Game]) -> list[int]:
    """Player ids, best first, by total and the rule set's tie-breakers (ties left equal are listed by name)."""
    difficult = set(tournament.difficult_role_letters())
    records: dict[int, PlayerRecord] = {}
    seats = Seat.objects.filter(game__in=[g.pk for g in games]).select_related("player")
    for seat in seats:
        record = records.setdefault(seat.player_id, PlayerRecord(player=seat.player.nickname))
        record.games += 1
        record.main += seat.main
        record.extras += seat.extras
        record.total += seat.total
        record.tiebreak_extras += seat.tiebreak_extras
        if seat.won:
            record.wins += 1
            if seat.role in difficult:
                record.wins_difficult += 1
        if seat.role in difficult:
            record.extras_difficult += seat.tiebreak_extras or Decimal(0)
        if seat.first_night_death:
            record.first_night_deaths += 1
    by_name = {r.player: pid for pid, r in records.items()}
    tiebreakers = tournament.ruleset.ruleset().tiebreakers
    return [by_name[row.player] for row in rank(list(records.values()), tiebreakers, {})]
