"""PURE: a series' standings from its tournaments' points (docs/leagues.md). No Django.

Each player keeps his best N tournaments (`best_of`; of equal points the earlier tournament first) plus every
finals tournament he played even when it is outside them; the rest are cut off. Rows go by the total, then the
tie-breakers in this order:

  counted — more tournaments counted;
  best    — the better best single result (then the second best, …);
  latest  — the better result in the series' latest tournament (then the one before, …; 0 where he did not play).

Rows equal on all of them share the place. `decided_by` names the rule that put a row below the one above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

COUNTED, BEST, LATEST = "counted", "best", "latest"
TIEBREAKERS = (COUNTED, BEST, LATEST)


@dataclass(frozen=True)
class Event:
    """A tournament of the series, in the series' order (by date, then id); `results`: player id -> (place, points)."""

    tournament_id: int
    finals: bool
    results: dict[int, tuple[int, Decimal]]


@dataclass
class Result:
    tournament_id: int
    place: int
    points: Decimal
    counted: bool = False


@dataclass
class Row:
    player_id: int
    results: list[Result] = field(default_factory=list)
    rank: int = 0
    decided_by: str = ""

    @cached_property  # read after the counted results are marked, never before
    def total(self) -> Decimal:
        return sum((r.points for r in self.results if r.counted), Decimal(0))

    @cached_property
    def counted(self) -> int:
        return sum(1 for r in self.results if r.counted)


def _mark_counted(row: Row, best_of: int, finals: set[int], order: dict[int, int]) -> None:
    ranked = sorted(row.results, key=lambda r: (-r.points, order[r.tournament_id]))
    for i, result in enumerate(ranked):
        result.counted = i < best_of or result.tournament_id in finals


def _keys(row: Row, latest_first: list[int]) -> dict[str, tuple]:
    by_event = {r.tournament_id: r.points for r in row.results if r.counted}
    return {
        COUNTED: (row.counted,),
        BEST: tuple(sorted(by_event.values(), reverse=True)),
        LATEST: tuple(by_event.get(t, Decimal(0)) for t in latest_first),
    }


def standings(events: list[Event], best_of: int) -> list[Row]:
    """The rows, ranked; a row's `results` in the series' order."""
    order = {e.tournament_id: i for i, e in enumerate(events)}
    finals = {e.tournament_id for e in events if e.finals}
    rows: dict[int, Row] = {}
    for event in events:
        for player_id, (place, points) in event.results.items():
            rows.setdefault(player_id, Row(player_id)).results.append(Result(event.tournament_id, place, points))
    for row in rows.values():
        _mark_counted(row, best_of, finals, order)
    latest_first = [e.tournament_id for e in reversed(events)]
    keyed = [(row, _keys(row, latest_first)) for row in rows.values()]

    def sort_key(item):
        row, keys = item
        return (-row.total, tuple(_negated(keys[name]) for name in TIEBREAKERS), row.player_id)

    keyed.sort(key=sort_key)
    ranked: list[Row] = []
    previous = None
    for position, (row, keys) in enumerate(keyed, start=1):
        if previous is None or previous[0].total != row.total:
            row.rank = position
        else:
            decider = next((name for name in TIEBREAKERS if previous[1][name] != keys[name]), "")
            row.rank, row.decided_by = (position, decider) if decider else (previous[0].rank, "")
        ranked.append(row)
        previous = (row, keys)
    return ranked


def _negated(values: tuple) -> tuple:
    return tuple(-v for v in values)
