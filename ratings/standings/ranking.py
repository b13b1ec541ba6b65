"""Standings: per-player aggregates and the ranking by the tie-breakers of the statistics registry.

Shaped after Tabbycat's `standings/metrics.py`: every tie-breaker is an entry of `ratings.statistics.registry
.TIEBREAKERS` (its key, label and the statistic it compares); a player's aggregate (`PlayerRecord`) holds the
registry's statistics the standings show and the tie-breakers compare. A rule set lists the keys in order
(`RuleSet.tiebreakers`, docs/rules.md D8; 000 T6.2–6.2.4, 002 III.14–14.6); `rank()` sorts by total, then by those.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from games.rules.ruleset import TB_LOT
from games.rules.scoring import GameScore, SeatScore
from ratings.statistics.registry import STATISTICS, TIEBREAKERS, Tiebreaker

ZERO = Decimal("0")
LOT = TB_LOT

# the tie-breakers by key (a rule set names them by key)
METRICS: dict[str, Tiebreaker] = {t.key: t for t in TIEBREAKERS}
# The statistics a record holds: those the standings' columns show, then those the tie-breakers compare.
RECORDED: tuple[str, ...] = tuple(dict.fromkeys(
    ["games", "wins", "main", "extras", "total", "tiebreak_extras"]
    + [t.statistic for t in TIEBREAKERS if t.statistic]))
_RECORDED = [s for s in STATISTICS if s.key in RECORDED]
# the facts of a seat those statistics read (what a seat alone says; `difficult` depends on the rule set)
_SEAT_FACTS = sorted({name for s in _RECORDED for name in ([s.fact] if s.fact else []) + [f for f, _ in s.when]})


class PlayerRecord:
    """A player's aggregate over some games: `RECORDED`'s statistics by key, read as attributes (`record.wins`)."""

    __slots__ = ("player", "values")

    def __init__(self, player: str, **values: Any) -> None:
        unknown = values.keys() - set(RECORDED)
        if unknown:
            raise TypeError(f"not a recorded statistic: {', '.join(sorted(unknown))}")
        self.player = player
        self.values: dict[str, Any] = {s.key: values.get(s.key, s.zero()) for s in _RECORDED}

    @classmethod
    def of(cls, player: str, stored: Mapping[str, Any] | object) -> PlayerRecord:
        """The record of a stored row (a PlayerStats row: a dict of its values, or the model instance)."""
        values = stored if isinstance(stored, Mapping) else vars(stored)
        return cls(player, **{key: values[key] for key in RECORDED})

    def __getattr__(self, name: str) -> Any:
        if name != "values":  # (unset only while a copy or an unpickling builds the record)
            try:
                return self.values[name]
            except KeyError:
                pass
        raise AttributeError(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerRecord) and (self.player, self.values) == (other.player, other.values)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaced

    def __repr__(self) -> str:
        return f"PlayerRecord({self.player!r}, {self.values!r})"

    def add_game(self, seat_score: SeatScore, difficult_roles: Collection[str]) -> None:
        """Add one seat (the engine's SeatScore, or a stored Seat with the same score fields): each statistic's
        share of it, as the registry declares it."""
        row = {name: (seat_score.role in difficult_roles) if name == "difficult" else getattr(seat_score, name)
               for name in _SEAT_FACTS}
        for statistic in _RECORDED:
            self.values[statistic.key] += statistic.share(row)


@dataclass
class StandingRow:
    rank: int  # 1-based
    player: str
    record: PlayerRecord
    decided_by: str | None  # the tie-breaker that put this row below the previous one; None if the total did
    provisional: bool = False  # a game of this player in the scope is under protest (filled by ratings.standings.selectors)
    player_id: int | None = None  # the stored player, when the row comes from the database


def aggregate(game_scores: Iterable[GameScore], difficult_roles: Collection[str]) -> dict[str, PlayerRecord]:
    records: dict[str, PlayerRecord] = {}
    for game in game_scores:
        for seat_score in game.seats:
            record = records.setdefault(seat_score.player, PlayerRecord(seat_score.player))
            record.add_game(seat_score, difficult_roles)
    return records


def _key_part(name: str, lots: Mapping[str, int]) -> Callable[[PlayerRecord], Any]:
    """The sort key part of the tie-breaker `name` for a record (more is better, so negated; the lot: lower is
    better)."""
    if name == LOT:
        # 000 T6.2.4 / 002 III.14.6: the stored lot, lower first; players without a lot (no lot drawn: a season)
        # go last and are not told apart by it: equal on every other key, they share the place (listed by name).
        def lot(record: PlayerRecord) -> tuple:
            number = lots.get(record.player)
            return (0, number) if number is not None else (1, 0)
        return lot
    try:
        statistic = METRICS[name].statistic
    except KeyError as exc:
        raise KeyError(f"unknown tie-breaker {name!r}; known: {', '.join(METRICS)}") from exc
    return lambda record: -record.values[statistic]  # type: ignore[index]


def rank(
    records: Mapping[str, PlayerRecord] | Iterable[PlayerRecord],
    tiebreakers: Sequence[str],
    lots: Mapping[str, int],
) -> list[StandingRow]:
    """Sort by total (desc), then each tie-breaker in order (more is better; the lot: lower is better).

    Rows equal on every key share a rank (possible only without a lot); they are listed by name.
    """
    rows = list(records.values()) if isinstance(records, Mapping) else list(records)
    names = [n for n in tiebreakers if n != "total"]  # within a group of equal totals
    parts = [_key_part(name, lots) for name in names]  # refuses an unknown name even when no tie needs it

    def key(record: PlayerRecord) -> tuple:
        return (*(part(record) for part in parts), record.player)

    # By total first; the tie-breakers are computed only inside a group of equal totals (most totals differ).
    by_total: dict[Decimal, list[PlayerRecord]] = {}
    for record in rows:
        by_total.setdefault(record.total, []).append(record)
    standings: list[StandingRow] = []
    position = 0
    for total in sorted(by_total, reverse=True):
        group = by_total[total]
        # each key made once: the sort and the comparison with the row above read the same tuples
        keyed = sorted(((key(r), r) for r in group), key=lambda pair: pair[0]) if len(group) > 1 else [((), group[0])]
        previous: tuple = ()
        for index, (values, record) in enumerate(keyed):
            position += 1
            if index == 0:  # below a higher total (or the first row)
                standings.append(StandingRow(position, record.player, record, None))
                previous = values
                continue
            above = standings[-1]
            decided_by = next((name for i, name in enumerate(names) if values[i] != previous[i]), None)
            previous = values
            if decided_by is None:  # equal on every key: same rank
                standings.append(StandingRow(above.rank, record.player, record, None))
            else:
                standings.append(StandingRow(position, record.player, record, decided_by))
    return standings


def draw_lots(players: Iterable[str], rng: random.Random) -> dict[str, int]:
    """Lot numbers 1..n in a random order, drawn once and stored (docs/rules.md D8)."""
    order = sorted(set(players))
    rng.shuffle(order)
    return {player: number for number, player in enumerate(order, start=1)}
